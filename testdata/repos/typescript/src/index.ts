export * from './models/item';
export { Inventory } from './services/inventory';
export { formatPrice } from './utils';
export type { Repository } from './services/repository';
