import type { Item } from '../models/item.js';
import { Repository, MemoryRepository } from './repository';
import { formatPrice, createLogger, type Logger } from '../utils';

/**
 * Inventory keeps the items of the shop and reports their value.
 */
export class Inventory {
  private static instances = 0;

  constructor(private readonly repo: Repository<Item>, protected log: Logger) {
    Inventory.instances++;
  }

  /** create makes an inventory backed by memory. */
  static create(prefix = 'inventory'): Inventory {
    return new Inventory(new MemoryRepository<Item>(), createLogger(prefix));
  }

  add(item: Item): void {
    if (!item) {
      throw new TypeError('item is required');
    }
    this.repo.save(item);
    this.log.info(`added ${item.name}`);
  }

  get size(): number {
    return this.repo.all().length;
  }

  /** The total value of the inventory, formatted. */
  async total(currency?: string): Promise<string> {
    const sum = this.repo.all().reduce((acc, it) => acc + it.finalPrice(), 0);
    return formatPrice(sum, currency);
  }

  private report(): string[] {
    const lines: string[] = [];
    for (const it of this.repo.all()) {
      lines.push(`${it.name}: ${formatPrice(it.price)}`);
    }
    return lines;
  }

  print = (): void => {
    this.report().forEach((l) => this.log.info(l));
  };
}
