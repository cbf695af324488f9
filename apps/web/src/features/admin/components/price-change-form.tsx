import { useEffect, useRef, useState } from 'react';
import { z } from 'zod';
import {
  PRICE_CHANGE_MESSAGES,
  earliestPriceChangeDate,
} from '@dealerpass/domain/billing/price-change';
import { PRICED_ITEMS, type TPricedItem } from '@dealerpass/domain/prices';
import {
  ZStaffSchedulePriceRequestSchema,
  type TStaffSchedulePriceRequest,
} from '@dealerpass/domain/admin/console-requests';
import type { TStaffPriceChangePreview } from '@dealerpass/domain/admin/business-views';
import {
  compareDates,
  formatCalendarDate,
  parseIsoDate,
  toIsoDate,
} from '@dealerpass/domain/time/calendar-date';
import { Button, SubmitButton } from '../../../components/ui/button.tsx';
import { ErrorSummary } from '../../../components/ui/error-summary.tsx';
import { TextField } from '../../../components/ui/fields.tsx';
import { runtimeConfig } from '../../../lib/runtime-config.ts';
import { FORM_CHECK_KEY, useRequestKey } from '../../../lib/use-request-key.ts';
import { useSubmit } from '../../../lib/use-submit.ts';
import { useValidatedForm } from '../../../lib/use-validated-form.ts';
import { previewPrices } from '../api/preview-prices.ts';
import { schedulePrices } from '../api/schedule-prices.ts';
import { money } from './format.ts';

export const ITEM_LABELS: Partial<Record<TPricedItem, string>> = {
  SIMULCAST: 'Every simulcast',
  PLATFORM_FEE: 'Platform fee',
};

type TPriceField = `price_${TPricedItem}`;
/** `prices` holds no value: it carries the problem of the list as a whole (none named). */
type IFormValues = { effectiveDate: string; prices?: string } & Record<TPriceField, string>;

const fieldOf = (item: TPricedItem): TPriceField => `price_${item}`;
const FIELD_IDS = {
  effectiveDate: 'price-change-date',
  // A problem of the whole list (no price named) is shown at the first price.
  prices: `price-change-${PRICED_ITEMS[0]}`,
  ...Object.fromEntries(PRICED_ITEMS.map((item) => [fieldOf(item), `price-change-${item}`])),
} as Record<'effectiveDate' | 'prices' | TPriceField, string>;

const DOLLARS = /^\d{1,5}(\.\d{1,2})?$/;

/**
 * The prices typed in dollars (empty: unchanged) as the domain's request in cents, checked by its
 * schema, and R11's 30 days' notice counted in the business time zone, as the server counts it.
 */
function formSchema(earliest: string) {
  const priceFields = Object.fromEntries(
    PRICED_ITEMS.map((item) => [
      fieldOf(item),
      z
        .string()
        .trim()
        .refine((value) => value === '' || DOLLARS.test(value), {
          message: 'Enter the monthly price in dollars, e.g. 65.00, or leave it empty.',
        }),
    ]),
  ) as unknown as Record<TPriceField, z.ZodType<string>>;
  return z
    .object({
      effectiveDate: z
        .string()
        .refine((value) => parseIsoDate(value) !== null, {
          message: PRICE_CHANGE_MESSAGES.dateInvalid,
        })
        .refine(
          (value) => {
            const date = parseIsoDate(value);
            const first = parseIsoDate(earliest);
            return !date || !first || compareDates(date, first) >= 0;
          },
          { message: PRICE_CHANGE_MESSAGES.tooSoon },
        ),
      ...priceFields,
    })
    .transform((form) => ({
      effectiveDate: form.effectiveDate,
      prices: PRICED_ITEMS.flatMap((item) => {
        const typed = form[fieldOf(item)].trim();
        return typed ? [{ item, cents: Math.round(Number(typed) * 100) }] : [];
      }),
      requestKey: FORM_CHECK_KEY,
    }))
    .pipe(ZStaffSchedulePriceRequestSchema);
}

/** What the console says after a scheduling or a withdrawal: the server's answer, in words. */
export function scheduledText(effectiveDate: string, notified: number): string {
  const told = notified === 1 ? '1 account was e-mailed' : `${notified} accounts were e-mailed`;
  return `New prices from ${businessDate(effectiveDate)} are scheduled; ${told}.`;
}

function businessDate(iso: string): string {
  return formatCalendarDate(parseIsoDate(iso));
}

/**
 * An admin schedules new prices (R11 amended, R12; docs/decisions/032) in two steps: the form
 * asks the server's preview (the accounts that will be e-mailed, one sample notice, nothing
 * written), and only "Confirm and schedule" schedules what was previewed. One key per intent
 * (docs/decisions/031): a resend of the same confirmation keeps it; other prices or another date
 * get a new one.
 */
export function PriceChangeForm({
  onScheduled,
}: {
  onScheduled: (result: { effectiveDate: string; notified: number }) => void;
}) {
  const keys = useRequestKey();
  const [earliest] = useState(() =>
    toIsoDate(earliestPriceChangeDate(new Date(), runtimeConfig().businessTimeZone)),
  );
  const [preview, setPreview] = useState<{
    request: TStaffSchedulePriceRequest;
    answer: TStaffPriceChangePreview;
  } | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [confirmFailure, setConfirmFailure] = useState<string | null>(null);
  const previewHeading = useRef<HTMLHeadingElement>(null);
  const previewButton = useRef<HTMLButtonElement>(null);
  const failure = useRef<HTMLDivElement>(null);
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isSubmitting },
    summary,
    onInvalid,
    errorSummary,
  } = useValidatedForm<IFormValues, TStaffSchedulePriceRequest, keyof typeof FIELD_IDS>(
    formSchema(earliest),
    FIELD_IDS,
    {
      defaultValues: {
        effectiveDate: earliest,
        ...Object.fromEntries(PRICED_ITEMS.map((item) => [fieldOf(item), ''])),
      } as IFormValues,
    },
  );

  useEffect(() => {
    if (preview) previewHeading.current?.focus();
  }, [preview]);
  // The confirm button is disabled while it works: a refusal is where focus goes next.
  useEffect(() => {
    if (confirmFailure) failure.current?.focus();
  }, [confirmFailure]);

  const sendPreview = useSubmit({ title: 'The change could not be previewed', summary });
  const sendSchedule = useSubmit({ keys });

  const onValid = async (values: TStaffSchedulePriceRequest) => {
    const { requestKey: _key, ...change } = values;
    const outcome = await sendPreview(() => previewPrices(change));
    if (!outcome.ok) return;
    setConfirmFailure(null);
    setPreview({ request: values, answer: outcome.value });
  };

  const confirm = async () => {
    if (!preview) return;
    setConfirming(true);
    setConfirmFailure(null);
    const outcome = await sendSchedule(() =>
      schedulePrices({ ...preview.request, requestKey: keys.keyFor(preview.request) }),
    );
    setConfirming(false);
    if (!outcome.ok) {
      setConfirmFailure(outcome.message);
      return;
    }
    reset();
    setPreview(null);
    onScheduled(outcome.value);
  };

  const backToForm = () => {
    setPreview(null);
    // The button that opened the preview is there again: focus goes back to it.
    requestAnimationFrame(() => previewButton.current?.focus());
  };

  return (
    <form
      className="admin-form"
      onSubmit={handleSubmit(onValid, onInvalid)}
      noValidate
      aria-labelledby="price-change-title"
    >
      <h2 id="price-change-title">Schedule a price change</h2>
      <p>
        Fill in only the prices that change, then preview: you see how many accounts will be
        e-mailed and one of the notices before anything is scheduled. Accounts that will not be
        billed at the new price (complimentary, or ending before the date) are not e-mailed.
      </p>
      <ErrorSummary {...errorSummary} />
      <fieldset className="admin-fieldset admin-fieldset--plain" disabled={preview !== null}>
        <legend className="visually-hidden">The change</legend>
        <TextField
          id={FIELD_IDS.effectiveDate}
          label="Takes effect on"
          hint={`Midnight in ${runtimeConfig().businessTimeZone}; ${earliest} at the earliest.`}
          type="date"
          min={earliest}
          required
          {...register('effectiveDate')}
          error={errors.effectiveDate?.message}
        />
        <fieldset className="admin-fieldset">
          <legend>New monthly prices in dollars</legend>
          <div className="admin-form__grid admin-form__grid--narrow">
            {PRICED_ITEMS.map((item) => (
              <TextField
                key={item}
                id={FIELD_IDS[fieldOf(item)]}
                label={ITEM_LABELS[item] ?? item}
                inputMode="decimal"
                autoComplete="off"
                {...register(fieldOf(item))}
                error={
                  errors[fieldOf(item)]?.message ??
                  (item === PRICED_ITEMS[0] ? errors.prices?.message : undefined)
                }
              />
            ))}
          </div>
        </fieldset>
      </fieldset>
      {preview === null ? (
        <div className="form-actions">
          <SubmitButton busy={isSubmitting} ref={previewButton}>
            {isSubmitting ? 'Previewing…' : 'Preview the change'}
          </SubmitButton>
        </div>
      ) : (
        <section className="admin-preview" aria-labelledby="price-preview-title">
          <h3 id="price-preview-title" ref={previewHeading} tabIndex={-1}>
            Check before scheduling: from {businessDate(preview.answer.effectiveDate)}
          </h3>
          <p data-testid="price-preview-count">
            {preview.answer.accountsAffected === 1
              ? '1 account will be e-mailed now.'
              : `${preview.answer.accountsAffected} accounts will be e-mailed now.`}
          </p>
          <ul className="admin-plain-list">
            {preview.answer.rows.map((row) => (
              <li key={row.item}>
                {ITEM_LABELS[row.item as TPricedItem] ?? row.item}: {money(row.cents)} a month
              </li>
            ))}
          </ul>
          {preview.answer.sampleNotice ? (
            <figure className="admin-sample-notice">
              <figcaption>Sample notice, to {preview.answer.sampleNotice.to}</figcaption>
              <p className="admin-sample-notice__subject">{preview.answer.sampleNotice.subject}</p>
              <p className="admin-message-text">{preview.answer.sampleNotice.text}</p>
            </figure>
          ) : (
            <p>No account's monthly total changes: nobody is e-mailed.</p>
          )}
          {confirmFailure ? (
            <div role="alert" className="admin-preview__failure" ref={failure} tabIndex={-1}>
              <p>The prices were not scheduled: {confirmFailure}</p>
            </div>
          ) : null}
          <div className="form-actions">
            <Button variant="secondary" onClick={backToForm} disabled={confirming}>
              Change the prices
            </Button>
            <Button busy={confirming} onClick={() => void confirm()}>
              {confirming ? 'Scheduling…' : 'Confirm and schedule'}
            </Button>
          </div>
        </section>
      )}
    </form>
  );
}
