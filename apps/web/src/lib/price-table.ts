import {
  R3_PRICE_TABLE,
  isPricedItem,
  type IPriceRow,
  type TPriceTable,
} from '@dealerpass/domain/prices';

/** Where the server puts the dated price table in the page it serves (docs/decisions/025). */
export const PRICE_TABLE_ELEMENT_ID = 'dp-prices';

let cached: TPriceTable | null = null;

function isPriceRow(value: unknown): value is IPriceRow {
  if (typeof value !== 'object' || value === null) return false;
  const row = value as Record<string, unknown>;
  return (
    isPricedItem(row.item) &&
    (row.from === null || (typeof row.from === 'string' && !Number.isNaN(Date.parse(row.from)))) &&
    typeof row.cents === 'number' &&
    Number.isInteger(row.cents) &&
    row.cents >= 0
  );
}

/**
 * The price table every price on screen is quoted from (DECISIONS R11): the server's, read once
 * from the page (no request on first load). A page without it (the Vite development server, a
 * unit test) uses R3's table, which is what the server's database starts with.
 */
export function priceTable(): TPriceTable {
  if (cached) return cached;
  const text = document.getElementById(PRICE_TABLE_ELEMENT_ID)?.textContent ?? '';
  try {
    const parsed: unknown = text ? JSON.parse(text) : null;
    cached =
      Array.isArray(parsed) && parsed.length > 0 && parsed.every(isPriceRow)
        ? parsed
        : R3_PRICE_TABLE;
  } catch {
    cached = R3_PRICE_TABLE;
  }
  return cached;
}

/** Tests only: forget the table read so far. */
export function resetPriceTableForTests(): void {
  cached = null;
}
