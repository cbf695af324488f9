import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { CONTACT_SUBMITTED } from '@dealerpass/domain/messages/toast';
import {
  CONTACT_COMMENTS_MAX_LENGTH,
  CONTACT_PHONE_COUNTRIES,
  CONTACT_QUERY_TYPES,
  CONTACT_SOURCE,
} from '@dealerpass/domain/forms/contact';
import type { TContactUsRequest } from '@dealerpass/domain/schemas/contact';
import { SubmitButton } from '../../../components/ui/button.tsx';
import { CaptchaField } from '../../../components/ui/captcha/captcha-field.tsx';
import { SelectField, TextAreaField, TextField } from '../../../components/ui/fields.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { useSubmit } from '../../../lib/use-submit.ts';
import { useSchemaResolver } from '../../../lib/use-validated-form.ts';
import { submitContact } from '../api/submit-contact.ts';

// The server's own schema, imported when the page is first used (docs/decisions/027).
const loadContactSchema = () =>
  import('@dealerpass/domain/schemas/contact').then((module) => module.ZContactUsRequestSchema);

const EMPTY: TContactUsRequest = {
  fullName: '',
  email: '',
  phoneCountry: 'United States',
  phoneNumber: '',
  queryType: '' as TContactUsRequest['queryType'],
  auctionAccessNumber: '',
  comments: '',
  recaptcha: '',
  source: CONTACT_SOURCE,
};

/** The fields a server's field error may name (the captcha is asked for again, not marked). */
const { recaptcha: _captcha, ...MARKED } = EMPTY;
const FIELD_IDS = Object.fromEntries(Object.keys(MARKED).map((field) => [field, field])) as Record<
  keyof typeof MARKED,
  string
>;

/**
 * The Contact Us form (001 §2–5): validated with the server's own schema, errors shown once a
 * field was touched, submit enabled only after a change and a solved captcha.
 */
export function ContactForm() {
  const toast = useToast();
  const [captchaReset, setCaptchaReset] = useState(0);
  const resolver = useSchemaResolver<TContactUsRequest, TContactUsRequest>(loadContactSchema);
  const {
    register,
    control,
    handleSubmit,
    reset,
    setError,
    setValue,
    formState: { errors, isDirty, isSubmitting },
  } = useForm<TContactUsRequest>({
    resolver,
    defaultValues: EMPTY,
    mode: 'onTouched',
  });

  const captcha = useWatch({ control, name: 'recaptcha' });
  const comments = useWatch({ control, name: 'comments' }) ?? '';

  const send = useSubmit({
    fields: FIELD_IDS,
    setError,
    onFailure: () => {
      // 001 §7: the generic error toast; the captcha is spent or refused either way, so it is
      // cleared and asked for again (001 §8).
      toast.error();
      setCaptchaReset((n) => n + 1);
    },
  });

  const onSubmit = handleSubmit(async (values) => {
    const outcome = await send(() => submitContact(values));
    if (!outcome.ok) return;
    toast.success(CONTACT_SUBMITTED);
    reset(EMPTY);
    setCaptchaReset((n) => n + 1);
  });

  return (
    <form
      className="contact-form card"
      onSubmit={onSubmit}
      noValidate
      aria-labelledby="contact-form-title"
    >
      <h2 id="contact-form-title">Send us a message</h2>
      <p className="form-note">Fields marked * are required.</p>
      <TextField
        label="Full name"
        autoComplete="name"
        required
        {...register('fullName')}
        error={errors.fullName?.message}
      />
      <TextField
        label="Email"
        type="email"
        autoComplete="email"
        required
        {...register('email')}
        error={errors.email?.message}
      />
      <div className="field-row">
        <SelectField
          label="Phone country"
          required
          options={CONTACT_PHONE_COUNTRIES.map((country) => ({ value: country, label: country }))}
          {...register('phoneCountry')}
          error={errors.phoneCountry?.message}
        />
        <TextField
          label="Phone number"
          type="tel"
          inputMode="numeric"
          autoComplete="tel-national"
          maxLength={10}
          required
          hint="10 digits, numbers only"
          {...register('phoneNumber')}
          error={errors.phoneNumber?.message}
        />
      </div>
      <SelectField
        label="Reason for contacting us"
        required
        placeholder="Choose a reason"
        options={CONTACT_QUERY_TYPES.map((reason) => ({ value: reason, label: reason }))}
        {...register('queryType')}
        error={errors.queryType?.message}
      />
      <TextField
        label="AuctionACCESS number"
        inputMode="numeric"
        maxLength={9}
        hint="Optional"
        {...register('auctionAccessNumber')}
        error={errors.auctionAccessNumber?.message}
      />
      <TextAreaField
        label="Comments"
        rows={5}
        maxLength={CONTACT_COMMENTS_MAX_LENGTH}
        required
        hint={`${CONTACT_COMMENTS_MAX_LENGTH - comments.length} characters remaining`}
        {...register('comments')}
        error={errors.comments?.message}
      />
      <CaptchaField
        control={control}
        name="recaptcha"
        setValue={setValue}
        resetSignal={captchaReset}
      />
      <div className="form-actions">
        <SubmitButton busy={isSubmitting} disabled={!isDirty || !captcha}>
          {isSubmitting ? 'Sending…' : 'Submit'}
        </SubmitButton>
      </div>
    </form>
  );
}
