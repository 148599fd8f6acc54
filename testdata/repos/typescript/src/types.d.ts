/** Options of the shop, as read from its config file. */
export interface ShopConfig {
  name: string;
  currency?: string;
}

declare global {
  /** Set by the build. */
  function shopBuildInfo(): string;
}
