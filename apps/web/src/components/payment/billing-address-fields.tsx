import type { HTMLAttributes } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import {
  COUNTRY_LIST,
  countryOf,
  postalMaxLengthOf,
  regionLabelOf,
  regionsOf,
} from '@dealerpass/domain/geo/countries';
import { BILLING_LABELS } from '@dealerpass/domain/schemas/messages';
import { SelectField, TextField } from '../ui/fields.tsx';

export type TBillingAddressField =
  | 'billingFirstName'
  | 'billingLastName'
  | 'billingCountry'
  | 'billingAddress1'
  | 'billingAddress2'
  | 'billingCity'
  | 'billingState'
  | 'billingZip';

const COUNTRY_OPTIONS = COUNTRY_LIST.map((c) => ({ value: c.code, label: c.name }));

interface BillingAddressFieldsProps {
  /** The form's `register` and `setValue`, for the billing address fields. */
  register: (
    name: TBillingAddressField,
    options?: { onChange?: () => void },
  ) => UseFormRegisterReturn<TBillingAddressField>;
  setValue: (name: 'billingState', value: string) => void;
  ids: Record<TBillingAddressField, string>;
  errors: Partial<Record<TBillingAddressField, { message?: string | undefined }>>;
  className: string;
  /** The country chosen: the region's label, options and the postal code's length follow it. */
  country: string | undefined;
  /**
   * Where the country sits: before the address lines, the region beside city and postal code
   * (account), or after them, beside the region (sign-up).
   */
  layout: 'country-first' | 'country-with-region';
  required: boolean;
  /** The region's own required marker, when it differs from the other fields'. */
  regionRequired?: boolean;
  /** Shown, read-only, while the address is the account's (the account form's same-address box). */
  locked?: boolean;
  countryPlaceholder?: string;
  regionPlaceholder: (regionLabel: string) => string;
  /** Whether the postal code asks for the country's keyboard (numeric for the US). */
  postalInputMode?: boolean;
  /** Handlers every input gets (the account form's edit confirmation). */
  fieldProps?: Pick<HTMLAttributes<HTMLElement>, 'onFocus'>;
}

/**
 * The billing name and address (000 §4, 001 §4): changing the country empties the region, whose
 * label and options are the country's.
 */
export function BillingAddressFields({
  register,
  setValue,
  ids,
  errors,
  className,
  country,
  layout,
  required,
  regionRequired = required,
  locked = false,
  countryPlaceholder,
  regionPlaceholder,
  postalInputMode = false,
  fieldProps,
}: BillingAddressFieldsProps) {
  const text = (name: TBillingAddressField, autoComplete: string, label: string) => (
    <TextField
      id={ids[name]}
      label={label}
      autoComplete={autoComplete}
      required={name === 'billingAddress2' ? undefined : required}
      readOnly={locked || undefined}
      {...register(name)}
      {...fieldProps}
      error={errors[name]?.message}
    />
  );
  const regionLabel = regionLabelOf(country).toLowerCase();
  const countrySelect = (
    <SelectField
      id={ids.billingCountry}
      label={BILLING_LABELS.billingCountry}
      autoComplete="billing country"
      required={required}
      disabled={locked || undefined}
      placeholder={countryPlaceholder}
      options={COUNTRY_OPTIONS}
      // 000 §4, 001 §4: changing the country resets the region.
      {...register('billingCountry', { onChange: () => setValue('billingState', '') })}
      {...fieldProps}
      error={errors.billingCountry?.message}
    />
  );
  const regionSelect = (
    <SelectField
      id={ids.billingState}
      label={`Billing ${regionLabel}`}
      // The sign-up form has never asked the browser to fill the region; it still does not.
      autoComplete={layout === 'country-first' ? 'billing address-level1' : undefined}
      required={regionRequired}
      disabled={locked || undefined}
      placeholder={regionPlaceholder(regionLabel)}
      options={regionsOf(country).map((r) => ({ value: r.code, label: r.name }))}
      {...register('billingState')}
      {...fieldProps}
      error={errors.billingState?.message}
    />
  );
  const city = text('billingCity', 'billing address-level2', BILLING_LABELS.billingCity);
  const zip = (
    <TextField
      id={ids.billingZip}
      label={BILLING_LABELS.billingZip}
      autoComplete="billing postal-code"
      inputMode={postalInputMode ? (countryOf(country)?.postalInputMode ?? 'text') : undefined}
      required={required}
      readOnly={locked || undefined}
      maxLength={postalMaxLengthOf(country)}
      {...register('billingZip')}
      {...fieldProps}
      error={errors.billingZip?.message}
    />
  );
  return (
    <fieldset className={className}>
      <legend>Billing address</legend>
      <div className="field-row">
        {text('billingFirstName', 'billing given-name', BILLING_LABELS.billingFirstName)}
        {text('billingLastName', 'billing family-name', BILLING_LABELS.billingLastName)}
      </div>
      {layout === 'country-first' ? countrySelect : null}
      {text('billingAddress1', 'billing address-line1', BILLING_LABELS.billingAddress1)}
      {text('billingAddress2', 'billing address-line2', 'Billing address line 2')}
      {layout === 'country-first' ? (
        <div className="field-row">
          {city}
          {regionSelect}
          {zip}
        </div>
      ) : (
        <>
          <div className="field-row">
            {countrySelect}
            {regionSelect}
          </div>
          <div className="field-row">
            {city}
            {zip}
          </div>
        </>
      )}
    </fieldset>
  );
}
