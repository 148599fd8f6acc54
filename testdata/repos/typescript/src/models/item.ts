import { Entity } from './entity';

/** The categories an item can be filed under. */
export enum Category {
  Food = 'food',
  Tools = 'tools',
  Other,
}

export type ItemId = string;

/** Something with a price in cents. */
export interface Priced {
  readonly price: number;
  discount?: number;
  /** The price after the discount. */
  finalPrice(): number;
}

/**
 * Item is one product on the shelf.
 */
export class Item extends Entity implements Priced {
  static readonly MAX_NAME = 64;
  #secret = 0;

  constructor(id: ItemId, public name: string, public price: number, public category: Category = Category.Other) {
    super(id);
  }

  validate(): void {
    if (this.name.length > Item.MAX_NAME) {
      throw new RangeError('name too long');
    }
    if (this.price < 0) throw new Error('negative price');
    this.touch();
  }

  finalPrice(): number {
    return this.price;
  }

  rename(name: string): Item {
    this.name = name;
    this.touch();
    return this;
  }
}

export function isItem(x: unknown): x is Item {
  return x instanceof Item;
}
