/** Formats a price in cents as money. */
export default function formatPrice(cents: number, currency = 'USD'): string {
  if (!Number.isFinite(cents)) return 'n/a';
  return `${Money.symbol(currency)}${round(cents / 100, 2)}`;
}

// round rounds n to the given number of digits.
export const round = (n: number, digits?: number): string => n.toFixed(digits ?? 0);

export namespace Money {
  const symbols: Record<string, string> = { USD: '$', EUR: '€' };

  export function symbol(currency: string): string {
    return symbols[currency] ?? currency + ' ';
  }

  export function parse(text: string): number {
    const n = Number.parseFloat(text.replace(/[^0-9.]/g, ''));
    if (Number.isNaN(n)) {
      throw new Error(`not money: ${text}`);
    }
    return Math.round(n * 100);
  }
}
