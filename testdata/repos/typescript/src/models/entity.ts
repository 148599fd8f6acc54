/**
 * Entity is the base of everything the shop stores.
 */
export abstract class Entity {
  readonly id: string;
  protected updatedAt: Date = new Date();

  constructor(id: string) {
    this.id = id;
  }

  /** Checks the entity's invariants; throws when one does not hold. */
  abstract validate(): void;

  protected touch(): void {
    this.updatedAt = new Date();
  }
}
