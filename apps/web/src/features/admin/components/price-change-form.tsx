import { useState } from 'react';
import { z } from 'zod';
import {
  PRICE_CHANGE_MESSAGES,
  earliestPriceChangeDate,
} from '@dealerpass/domain/billing/price-change';
import { PRICED_ITEMS, type TPricedItem } from '@dealerpass/domain/prices';
import {
  ZStaffSchedulePriceRequestSchema,
  type TStaffSchedulePriceRequest,
} from '@dealerpass/domain/staff/console-requests';
import { compareDates, parseIsoDate, toIsoDate } from '@dealerpass/domain/time/calendar-date';
import { SubmitButton } from '../../../components/ui/button.tsx';
import { ErrorSummary } from '../../../components/ui/error-summary.tsx';
import { TextField } from '../../../components/ui/fields.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { failureMessage } from '../../../lib/error-text.ts';
import { runtimeConfig } from '../../../lib/runtime-config.ts';
import { FORM_CHECK_KEY, useRequestKey } from '../../../lib/use-request-key.ts';
import { useValidatedForm } from '../../../lib/use-validated-form.ts';
import { schedulePrices } from '../api/schedule-prices.ts';

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

/** An admin schedules new prices (R11, R12): at least 30 days ahead; affected dealers are told. */
export function PriceChangeForm({ onScheduled }: { onScheduled: () => void }) {
  const toast = useToast();
  // One key per schedule (decision 031): other prices or another date are a new request.
  const keys = useRequestKey();
  const [earliest] = useState(() =>
    toIsoDate(earliestPriceChangeDate(new Date(), runtimeConfig().businessTimeZone)),
  );
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

  const onValid = async (values: TStaffSchedulePriceRequest) => {
    summary.clear();
    try {
      await schedulePrices({ ...values, requestKey: keys.keyFor(values) });
      keys.settle(undefined);
      toast.success(`New prices from ${values.effectiveDate} are scheduled.`);
      reset();
      onScheduled();
    } catch (error) {
      keys.settle(error);
      summary.show('The prices were not scheduled', [{ message: failureMessage(error) }]);
    }
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
        Fill in only the prices that change. Every account whose monthly total changes is e-mailed
        once, now.
      </p>
      <ErrorSummary {...errorSummary} />
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
      <div className="form-actions">
        <SubmitButton busy={isSubmitting}>
          {isSubmitting ? 'Scheduling…' : 'Schedule prices'}
        </SubmitButton>
      </div>
    </form>
  );
}
