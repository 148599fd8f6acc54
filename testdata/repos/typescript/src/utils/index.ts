export { default as formatPrice, round } from './format';
export * from './logger';
