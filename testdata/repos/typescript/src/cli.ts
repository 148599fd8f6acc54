#!/usr/bin/env node
import { Inventory, Item, Category, formatPrice } from './index';
import * as storage from './io/storage';
import legacy = require('./legacy');

/** main runs the command line. */
export async function main(argv: string[]): Promise<void> {
  const inv = Inventory.create();
  for (const item of storage.load()) {
    inv.add(item);
  }
  const extra = new Item('x1', argv[2] ?? 'thing', 250, Category.Tools);
  extra.rename('gadget').validate();
  inv.add(extra);
  inv.print();
  console.log(await inv.total(), legacy.legacyTotal([1, 2]));
  const { round } = await import('./utils/format');
  console.log(round(1.5), formatPrice(100));
  storage.save(storage.load());
  if (argv.includes('--exit')) {
    process.exit(0);
  }
}

main(process.argv).catch((err) => {
  console.error(err);
  process.exit(1);
});
