import {
  priceChangeNoticeMail,
  type TSchedulePriceChangeRequest,
} from '@dealerpass/domain/billing/price-change';
import { mailText } from '@dealerpass/domain/mail/mail-content';
import type { IPriceRow } from '@dealerpass/domain/prices';
import { calendarDateIn, toIsoDate } from '@dealerpass/domain/time/calendar-date';
import { findAccountsBilledAtChange } from './find-accounts-billed-at-change.ts';
import { loadPriceTable } from './price-book.ts';
import { priceChangeOf, type PriceChangeDeps } from './schedule-price-change.ts';

export interface PriceChangePreview {
  effectiveDate: string;
  effectiveFrom: string;
  rows: IPriceRow[];
  /** Accounts that would be e-mailed if it were scheduled now (R11 amended). */
  accountsAffected: number;
  /** The notice the first of them would get, word for word; null when nobody is affected. */
  sampleNotice: { to: string; subject: string; text: string } | null;
}

/**
 * What scheduling a change would do, changing nothing (R11 amended, docs/decisions/032): the
 * accounts it would tell and one of their notices, computed by the query and the text the
 * scheduling itself uses. Refused like the scheduling when less than 30 days ahead.
 */
export async function previewPriceChange(
  deps: Pick<PriceChangeDeps, 'db' | 'now' | 'timeZone' | 'company'>,
  request: TSchedulePriceChangeRequest,
): Promise<PriceChangePreview> {
  const { rows, effectiveFrom } = priceChangeOf(request, deps.now(), deps.timeZone);
  const table = await loadPriceTable(deps.db);
  const reached = await findAccountsBilledAtChange(deps.db, [...table, ...rows], {
    effectiveFrom,
    effectiveDate: request.effectiveDate,
    today: toIsoDate(calendarDateIn(deps.now(), deps.timeZone)),
    timeZone: deps.timeZone,
  });
  const first = reached[0];
  const notice = first ? priceChangeNoticeMail({ company: deps.company, ...first }) : null;
  return {
    effectiveDate: request.effectiveDate,
    effectiveFrom,
    rows,
    accountsAffected: reached.length,
    sampleNotice:
      first && notice ? { to: first.email, subject: notice.subject, text: mailText(notice) } : null,
  };
}
