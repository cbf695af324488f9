/**
 * DECISIONS R5: card numbers and CVVs never reach our API. The server runs every request body
 * through this check and answers 400 RAW_CARD_DATA_REFUSED when it finds one.
 */

/** Keys that would carry a full card number or a CVV. */
const CARD_NUMBER_KEYS = new Set(['creditcardnumber', 'cardnumber', 'pan']);
const CVV_KEYS = new Set(['creditcardcode', 'cardcode', 'cvv', 'cvc', 'cvv2', 'securitycode']);

/** A run of 12 or more digits, allowing spaces or dashes between them. */
const CARD_LIKE = /(?:\d[ -]?){12,}/;

/**
 * The path of the first raw card number or CVV in a parsed JSON body, or null. A masked number
 * with at most four visible digits (e.g. 'XXXX1111') is allowed.
 */
export function findRawCardData(body: unknown, path: string[] = [], depth = 0): string | null {
  if (depth > 20 || body === null || typeof body !== 'object') return null;
  for (const [key, value] of Object.entries(body)) {
    const here = [...path, key];
    const name = key.toLowerCase().replace(/[^a-z0-9]/g, '');
    if (CVV_KEYS.has(name) && value !== null && value !== undefined && String(value) !== '') {
      return here.join('.');
    }
    if (CARD_NUMBER_KEYS.has(name) && (typeof value === 'string' || typeof value === 'number')) {
      if (String(value).replace(/\D/g, '').length > 4) return here.join('.');
    }
    if (typeof value === 'string' && CARD_LIKE.test(value) && /card/i.test(key)) {
      return here.join('.');
    }
    const nested = findRawCardData(value, here, depth + 1);
    if (nested) return nested;
  }
  return null;
}
