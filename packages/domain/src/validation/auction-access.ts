/** AuctionACCESS ids (000 §3, §5, §9; 001 §5, §9). */

/** A user's id: 9 digits starting with 1. */
export const AUCTION_ACCESS_ID_PATTERN = /^1\d{8}$/;
/** A dealership's id: 7 digits starting with 5 or 6. */
export const DEALERSHIP_AUCTION_ACCESS_ID_PATTERN = /^[56]\d{6}$/;

export const AUCTION_ACCESS_ID_MAX_LENGTH = 9;
export const DEALERSHIP_AUCTION_ACCESS_ID_MAX_LENGTH = 7;

export const AUCTION_ACCESS_ID_LABEL = 'Auction Access Id';
export const DEALERSHIP_AUCTION_ACCESS_ID_LABEL = 'Dealership Auction Access Id';

export function isAuctionAccessId(value: string): boolean {
  return AUCTION_ACCESS_ID_PATTERN.test(value);
}

export function isDealershipAuctionAccessId(value: string): boolean {
  return DEALERSHIP_AUCTION_ACCESS_ID_PATTERN.test(value);
}

/** 000 §3: a stored value of 0 (or nothing) is shown as an empty string. */
export function normalizeAuctionAccessId(value: string | number | null | undefined): string {
  if (value == null) return '';
  const text = String(value).trim();
  return text === '0' || text === '' ? '' : text;
}
