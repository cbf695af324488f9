import type { TPriceTable } from '@dealerpass/domain/prices';

/** Where the server puts the dated price table in the page it serves (docs/decisions/025). */
export const PRICE_TABLE_ELEMENT_ID = 'dp-prices';

let cached: TPriceTable | null = null;

/**
 * The price table every price on screen is quoted from (DECISIONS R11): the server's, read once
 * from the JSON data block of the page it served (no request on first load). The server writes
 * it from its database; a page without one (not served by our server) has no prices to show.
 */
export function priceTable(): TPriceTable {
  if (cached) return cached;
  try {
    const text = document.getElementById(PRICE_TABLE_ELEMENT_ID)?.textContent ?? '';
    const parsed: unknown = text ? JSON.parse(text) : [];
    cached = Array.isArray(parsed) ? (parsed as TPriceTable) : [];
  } catch {
    cached = [];
  }
  return cached;
}

/** Tests: the table a page would carry (they render without our server). */
export function setPriceTableForTests(table: TPriceTable | null): void {
  cached = table;
}
