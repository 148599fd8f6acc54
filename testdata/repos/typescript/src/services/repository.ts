import type { Entity } from '../models/entity';

/** Repository stores entities by id. */
export interface Repository<T extends Entity> {
  find(id: string): T | undefined;
  save(entity: T): void;
  all(): T[];
}

export class MemoryRepository<T extends Entity> implements Repository<T> {
  private readonly items = new Map<string, T>();

  find(id: string): T | undefined {
    return this.items.get(id);
  }

  save(entity: T): void {
    entity.validate();
    this.items.set(entity.id, entity);
  }

  /** Every stored entity, in insertion order. */
  all(): T[] {
    return [...this.items.values()];
  }

  remove(id: string): boolean;
  remove(ids: string[]): boolean;
  remove(idOrIds: string | string[]): boolean {
    const ids = Array.isArray(idOrIds) ? idOrIds : [idOrIds];
    return ids.every((id) => this.items.delete(id));
  }
}
