import { useMemo, useState } from 'react';
import type { z } from 'zod';
import { COUNTRY_LIST } from '@dealerpass/domain/geo/countries';
import { DEVICE_TYPES, PHONE_LABEL } from '@dealerpass/domain/forms/signup';
import type {
  ZSignupContactFormSchema,
  TSignupContactForm,
} from '@dealerpass/domain/schemas/signup-contact';
import { PHONE_INPUT_MAX_LENGTH, formatPhoneInput } from '@dealerpass/domain/validation/phone';
import { SubmitButton } from '../../../components/ui/button.tsx';
import { CaptchaField } from '../../../components/ui/captcha/captcha-field.tsx';
import { ErrorSummary } from '../../../components/ui/error-summary.tsx';
import { SelectField, TextField } from '../../../components/ui/fields.tsx';
import { CheckboxField } from '../../../components/ui/checkbox-field.tsx';
import { runtimeConfig } from '../../../lib/runtime-config.ts';
import { useSubmit } from '../../../lib/use-submit.ts';
import { SIGNUP_FIELD_ALIASES } from './step-failure.ts';
import { useValidatedForm } from '../../../lib/use-validated-form.ts';

type TContactInput = z.input<typeof ZSignupContactFormSchema>;

const FIELD_IDS = {
  firstName: 'signup-first-name',
  lastName: 'signup-last-name',
  email: 'signup-email',
  phoneCountryCode: 'signup-phone-country',
  phone: 'signup-phone',
  dealership: 'signup-dealership',
  deviceType: 'signup-device-type',
  recaptcha: 'signup-contact-captcha',
  terms: 'signup-terms',
} as const;

/** Page 1, contact details (001 §2, §5). No stepper. */
export function ContactStep({
  defaults,
  onDone,
}: {
  defaults: Partial<TContactInput>;
  /** Saves the lead; rejects with the failure the page shows. */
  onDone: (values: TSignupContactForm) => Promise<void>;
}) {
  const [captchaReset, setCaptchaReset] = useState(0);
  // Imported when the page is first used, not before its first paint (docs/decisions/027).
  const schema = useMemo(
    () => async () => {
      const { companyName, companyEmailDomain } = runtimeConfig();
      const { createSignupContactFormSchema } =
        await import('@dealerpass/domain/schemas/signup-contact');
      return createSignupContactFormSchema({ name: companyName, emailDomain: companyEmailDomain });
    },
    [],
  );
  const {
    register,
    control,
    handleSubmit,
    setError,
    setValue,
    formState: { errors, isSubmitting },
    summary,
    onInvalid,
    errorSummary,
  } = useValidatedForm<TContactInput, TSignupContactForm, keyof typeof FIELD_IDS>(
    schema,
    FIELD_IDS,
    {
      defaultValues: {
        firstName: '',
        lastName: '',
        email: '',
        phone: '',
        phoneCountryCode: 'US',
        dealership: '',
        deviceType: '' as TContactInput['deviceType'],
        terms: false as unknown as true,
        ...defaults,
        recaptcha: '',
      },
    },
  );

  const send = useSubmit({
    title: 'Your details were not saved',
    summary,
    fields: FIELD_IDS,
    setError,
    aliases: SIGNUP_FIELD_ALIASES,
    onFailure: () => {
      // The captcha was spent or refused: a new one is needed (001 §4).
      setCaptchaReset((n) => n + 1);
      setValue('recaptcha', '');
    },
  });

  const onValid = async (values: TSignupContactForm) => {
    await send(() => onDone(values));
  };

  const phone = register('phone');
  return (
    <form onSubmit={handleSubmit(onValid, onInvalid)} noValidate aria-labelledby="signup-heading">
      <ErrorSummary {...errorSummary} />
      <p className="form-note">Fields marked * are required.</p>
      <div className="field-row">
        <TextField
          id={FIELD_IDS.firstName}
          label="First name"
          autoComplete="given-name"
          required
          {...register('firstName')}
          error={errors.firstName?.message}
        />
        <TextField
          id={FIELD_IDS.lastName}
          label="Last name"
          autoComplete="family-name"
          required
          {...register('lastName')}
          error={errors.lastName?.message}
        />
      </div>
      <TextField
        id={FIELD_IDS.email}
        label="Email"
        type="email"
        autoComplete="email"
        required
        {...register('email')}
        error={errors.email?.message}
      />
      <div className="field-row signup-phone-row">
        <SelectField
          id={FIELD_IDS.phoneCountryCode}
          label="Phone country code"
          required
          options={COUNTRY_LIST.map((country) => ({
            value: country.code,
            label: `${country.name} (+${country.code === 'MX' ? '52' : '1'})`,
          }))}
          {...register('phoneCountryCode')}
          error={errors.phoneCountryCode?.message}
        />
        <TextField
          id={FIELD_IDS.phone}
          label={PHONE_LABEL}
          type="tel"
          autoComplete="tel-national"
          maxLength={PHONE_INPUT_MAX_LENGTH}
          hint="XXX-XXX-XXXX"
          required
          {...phone}
          onChange={(event) => {
            // Dash-delimited as typed (001 §5), unless the user types the (XXX) form.
            if (!event.target.value.includes('(')) {
              event.target.value = formatPhoneInput(event.target.value);
            }
            void phone.onChange(event);
          }}
          error={errors.phone?.message}
        />
      </div>
      <TextField
        id={FIELD_IDS.dealership}
        label="Dealership"
        autoComplete="organization"
        required
        {...register('dealership')}
        error={errors.dealership?.message}
      />
      <SelectField
        id={FIELD_IDS.deviceType}
        label="Device type"
        placeholder="Choose your mobile device"
        required
        options={DEVICE_TYPES.map((type) => ({ value: type, label: type }))}
        {...register('deviceType')}
        error={errors.deviceType?.message}
      />
      <CheckboxField
        id={FIELD_IDS.terms}
        label="I agree to the Terms of Use, Privacy, and Refund policies. *"
        hint={
          <>
            Read the{' '}
            <a href="/terms#terms" target="_blank" rel="noreferrer">
              Terms of Use
            </a>
            , the{' '}
            <a href="/terms#privacy" target="_blank" rel="noreferrer">
              Privacy notice
            </a>{' '}
            and the{' '}
            <a href="/terms#refund" target="_blank" rel="noreferrer">
              Refund policy
            </a>{' '}
            (each opens in a new tab).
          </>
        }
        {...register('terms')}
        error={errors.terms?.message}
      />
      <div id={FIELD_IDS.recaptcha} tabIndex={-1}>
        <CaptchaField
          control={control}
          name="recaptcha"
          setValue={setValue}
          resetSignal={captchaReset}
        />
      </div>
      <div className="form-actions">
        <SubmitButton busy={isSubmitting}>{isSubmitting ? 'Saving…' : 'Continue'}</SubmitButton>
      </div>
    </form>
  );
}
