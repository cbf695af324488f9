import { useEffect, useMemo, useRef, useState } from 'react';
import { useWatch } from 'react-hook-form';
import type { TSubscriptionCode } from '@dealerpass/domain/catalogue';
import { quote } from '@dealerpass/domain/prices';
import { priceTable } from '../../../lib/price-table.ts';
import { regionsOf } from '@dealerpass/domain/geo/countries';
import { billingRequired } from '@dealerpass/domain/forms/signup';
import type {
  TSignupPaymentFields,
  TSignupPaymentForm,
} from '@dealerpass/domain/schemas/signup-payment';
import { Button, SubmitButton } from '../../../components/ui/button.tsx';
import { CaptchaField } from '../../../components/ui/captcha/captcha-field.tsx';
import { ErrorSummary } from '../../../components/ui/error-summary.tsx';
import { TextField } from '../../../components/ui/fields.tsx';
import { BillingAddressFields } from '../../../components/payment/billing-address-fields.tsx';
import { CardFields } from '../../../components/payment/card-fields.tsx';
import { usePriceClock } from '../../../lib/use-price-clock.ts';
import { OrderSummary } from './order-summary.tsx';
import { storeSubTotal } from './pricing-calculator.tsx';
import { CheckboxField } from '../../../components/ui/checkbox-field.tsx';
import { useSubmit } from '../../../lib/use-submit.ts';
import { SIGNUP_FIELD_ALIASES } from './step-failure.ts';
import { useValidatedForm } from '../../../lib/use-validated-form.ts';

const FIELD_IDS = {
  creditCardNumber: 'signup-card-number',
  creditCardExpiration: 'signup-card-expiry',
  creditCardCode: 'signup-card-cvv',
  promoCode: 'signup-promo-code',
  referrer: 'signup-referrer',
  sameAddresses: 'signup-same-addresses',
  billingFirstName: 'signup-billing-first-name',
  billingLastName: 'signup-billing-last-name',
  billingAddress1: 'signup-billing-address1',
  billingAddress2: 'signup-billing-address2',
  billingCountry: 'signup-billing-country',
  billingState: 'signup-billing-state',
  billingCity: 'signup-billing-city',
  billingZip: 'signup-billing-zip',
  recaptcha: 'signup-payment-captcha',
} as const;

const BILLING_KEYS = [
  'billingFirstName',
  'billingLastName',
  'billingAddress1',
  'billingAddress2',
  'billingCity',
  'billingCountry',
  'billingState',
  'billingZip',
] as const;

const EMPTY: TSignupPaymentFields = {
  creditCardNumber: '',
  creditCardExpiration: '',
  creditCardCode: '',
  promoCode: '',
  hasValidPromoCode: false,
  referrer: '',
  sameAddresses: true,
  billingFirstName: '',
  billingLastName: '',
  billingAddress1: '',
  billingAddress2: '',
  billingCity: '',
  billingCountry: 'US',
  billingState: '',
  billingZip: '',
  recaptcha: '',
};

/**
 * Page 4, payment (001 §2, §4, §5): card fields (cleared when the page loads, whitespace
 * stripped on blur; they go to the gateway, never to our API, R5), promotion code, Referred By,
 * the same-address box and billing, the order summary, the captcha and Done.
 */
export function PaymentStep({
  defaults,
  codes,
  onDone,
  onBack,
}: {
  defaults: Partial<TSignupPaymentFields>;
  /** The subscriptions chosen on page 2, priced here for the order summary. */
  codes: readonly TSubscriptionCode[];
  /** Sends the sign-up; rejects with the failure (the toast is the page's). */
  onDone: (values: TSignupPaymentForm) => Promise<void>;
  onBack: (values: Partial<TSignupPaymentFields>) => void;
}) {
  // R3: priced at the moment the summary is shown, and kept as sub_total (001 §2).
  const now = usePriceClock();
  const totalCents = quote(codes, now, priceTable()).totalCents;
  useEffect(() => storeSubTotal(totalCents), [totalCents]);
  const [captchaReset, setCaptchaReset] = useState(0);
  // Imported when the page is first used, not with the sign-up's first paint (decision 027).
  const schema = useMemo(
    () => () =>
      import('@dealerpass/domain/schemas/signup-payment').then((module) =>
        module.createSignupPaymentFormSchema(() => new Date()),
      ),
    [],
  );
  const {
    register,
    control,
    handleSubmit,
    setError,
    setValue,
    getValues,
    resetField,
    formState: { errors, isSubmitting },
    summary,
    onInvalid,
    errorSummary,
  } = useValidatedForm<TSignupPaymentFields, TSignupPaymentForm, keyof typeof FIELD_IDS>(
    schema,
    FIELD_IDS,
    {
      defaultValues: { ...EMPTY, ...defaults, recaptcha: '' },
    },
  );

  // 001 §4: card fields are cleared when the payment page loads.
  useEffect(() => {
    setValue('creditCardNumber', '');
    setValue('creditCardExpiration', '');
    setValue('creditCardCode', '');
  }, [setValue]);

  const cardNumber = useWatch({ control, name: 'creditCardNumber' }) ?? '';
  const sameAddresses = useWatch({ control, name: 'sameAddresses' });
  const billingCountry = useWatch({ control, name: 'billingCountry' });
  const promoCode = useWatch({ control, name: 'promoCode' }) ?? '';
  const hasValidPromoCode = useWatch({ control, name: 'hasValidPromoCode' });
  // The '*' follows the schema's rules as they change (001 §5): a card unless a promotion code is
  // given, its expiry and CVV once a number is typed, billing when it differs and is needed.
  const cardRequired = promoCode.trim() === '';
  const cardDetailsRequired = cardNumber.trim() !== '';
  const needsBilling = billingRequired({
    sameAddresses,
    hasValidPromoCode,
    creditCardNumber: cardNumber,
  });
  const promoAtFocus = useRef('');
  // The code the Order Summary is asked for: the field's value when it was last left (001 §4).
  const [summaryCode, setSummaryCode] = useState(() => (defaults.promoCode ?? '').trim());

  const promo = register('promoCode');
  const sameBox = register('sameAddresses');

  const send = useSubmit({
    title: 'Your sign-up was not completed',
    summary,
    fields: FIELD_IDS,
    setError,
    aliases: SIGNUP_FIELD_ALIASES,
    onFailure: () => {
      // 001 §4, §8: the captcha is reset after any failure.
      setCaptchaReset((n) => n + 1);
      setValue('recaptcha', '');
    },
  });

  const onValid = async (values: TSignupPaymentForm) => {
    await send(() => onDone(values));
  };

  return (
    <>
      {isSubmitting ? (
        <div className="signup-submitting" role="status" aria-live="polite">
          <span className="signup-spinner" aria-hidden="true" />
          <p>Creating your account…</p>
        </div>
      ) : null}
      <form
        onSubmit={handleSubmit(onValid, onInvalid)}
        noValidate
        aria-labelledby="signup-heading"
        hidden={isSubmitting}
      >
        <ErrorSummary {...errorSummary} />
        <p className="form-note">
          Enter your card, a promotional code, or both. Fields marked * are required.
        </p>
        <CardFields
          register={register}
          setValue={setValue}
          ids={FIELD_IDS}
          errors={errors}
          legend="Credit card"
          className="signup-card-fields"
          labels={{ number: 'Card number', expiration: 'Expiration date (MM/YY)' }}
          required={{ number: cardRequired, details: cardDetailsRequired }}
          numberMaxLength={23}
          expirationPlaceholder="MM/YY"
          cardTypeOf={cardNumber}
        />
        <div className="field-row">
          <TextField
            id={FIELD_IDS.promoCode}
            label="Promotional code"
            autoComplete="off"
            {...promo}
            onFocus={(event) => {
              promoAtFocus.current = event.target.value;
            }}
            onBlur={async (event) => {
              // 001 §4: a new non-empty code is taken as valid here; the server checks it. The flag
              // is set before the field's own validation runs: otherwise 'Invalid Promo Code.'
              // flashes in for one render and moves the page under a click that caused this blur.
              const value = event.target.value.trim();
              if (value !== '' && value !== promoAtFocus.current.trim()) {
                setValue('hasValidPromoCode', true, { shouldTouch: true });
              }
              setSummaryCode(value);
              await promo.onBlur(event);
            }}
            error={errors.promoCode?.message}
          />
          <TextField
            id={FIELD_IDS.referrer}
            label="Referred By"
            autoComplete="off"
            {...register('referrer')}
            error={errors.referrer?.message}
          />
        </div>
        <CheckboxField
          id={FIELD_IDS.sameAddresses}
          label="Billing address is the same as my profile address"
          {...sameBox}
          onChange={async (event) => {
            await sameBox.onChange(event);
            // 001 §4: ticking it clears and untouches every billing field.
            if (event.target.checked) {
              for (const key of BILLING_KEYS) {
                resetField(key, { defaultValue: key === 'billingCountry' ? 'US' : '' });
              }
            }
          }}
        />
        {sameAddresses ? null : (
          <BillingAddressFields
            register={register}
            setValue={setValue}
            ids={FIELD_IDS}
            errors={errors}
            className="signup-billing"
            country={billingCountry}
            layout="country-with-region"
            required={needsBilling}
            regionRequired={needsBilling && regionsOf(billingCountry).length > 0}
            regionPlaceholder={() => 'Choose one'}
            postalInputMode
          />
        )}
        <OrderSummary codes={codes} promoCode={summaryCode} />
        <div id={FIELD_IDS.recaptcha} tabIndex={-1}>
          <CaptchaField
            control={control}
            name="recaptcha"
            setValue={setValue}
            resetSignal={captchaReset}
          />
        </div>
        <div className="form-actions">
          <Button variant="secondary" onClick={() => onBack(getValues())}>
            Back
          </Button>
          <SubmitButton busy={isSubmitting}>Done</SubmitButton>
        </div>
      </form>
    </>
  );
}
