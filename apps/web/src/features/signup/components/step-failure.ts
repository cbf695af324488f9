import type { IErrorSummaryItem } from '../../../components/ui/error-summary.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { failureMessage } from '../../../lib/error-text.ts';
import { CardTokenizationError } from '../../../lib/payments/card-tokenization-error.ts';

/** What a page's save or the final submit can fail with. */
export type StepFailure = ApiError | CardTokenizationError | Error;

/** Server field names that the pages show under another field. */
const SOURCE_ALIASES: Record<string, string> = {
  dealershipName: 'dealership',
  subscriptionSelection: 'subscriptions',
  paymentToken: 'creditCardNumber',
  cardBrand: 'creditCardNumber',
  cardLast4: 'creditCardNumber',
  termAndCondition: 'terms',
  dealershipAddress1: 'address1',
  dealershipAddress2: 'address2',
  dealershipCountry: 'country',
  dealershipState: 'state',
  dealershipCity: 'city',
  dealershipPostalCode: 'zip',
  userAuctionAccessId: 'auctionAccessId',
  promotionCodeNotValid: 'promoCode',
};

/**
 * Puts each field error of a failure on its field (001 §8: 'Sign-up status errors are listed
 * under the form') and returns the error summary's items: field problems link to their field,
 * others are listed as they are.
 */
export function applyServerErrors<K extends string>(
  failure: StepFailure,
  fieldIds: Readonly<Record<K, string>>,
  setError: (field: K, error: { message: string }) => void,
): IErrorSummaryItem[] {
  const list =
    failure instanceof ApiError || failure instanceof CardTokenizationError ? failure.errors : [];
  const items: IErrorSummaryItem[] = [];
  for (const entry of list) {
    const field = (SOURCE_ALIASES[entry.source] ?? entry.source) as K;
    const message = entry.message;
    if (!message) continue;
    if (Object.hasOwn(fieldIds, field)) {
      setError(field, { message });
      items.push({ message, fieldId: fieldIds[field] });
    } else {
      items.push({ message });
    }
  }
  if (items.length === 0)
    items.push({
      message: failure instanceof CardTokenizationError ? failure.message : failureMessage(failure),
    });
  const unique = new Map(items.map((item) => [`${item.fieldId ?? ''}|${item.message}`, item]));
  return [...unique.values()];
}
