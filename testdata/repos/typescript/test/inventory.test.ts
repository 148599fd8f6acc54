import { Inventory } from '../src/services/inventory';
import { Item } from '@shop/core';
import { formatPrice } from '../src/utils';

function sampleItem(price = 100): Item {
  return new Item('t1', 'test item', price);
}

describe('Inventory', () => {
  it('adds items and totals them', async () => {
    const inv = Inventory.create('test');
    inv.add(sampleItem());
    expect(await inv.total()).toBe(formatPrice(100));
  });
});
