import { useWatch } from 'react-hook-form';
import { z } from 'zod';
import { PROMOTION_KINDS, type TPromotionKind } from '@dealerpass/domain/billing/promotion';
import {
  ZCreatePromotionRequestSchema,
  type TCreatePromotionRequest,
} from '@dealerpass/domain/admin/console-requests';
import { SubmitButton } from '../../../components/ui/button.tsx';
import { CheckboxField } from '../../../components/ui/checkbox-field.tsx';
import { ErrorSummary } from '../../../components/ui/error-summary.tsx';
import { SelectField, TextField } from '../../../components/ui/fields.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { FORM_CHECK_KEY, useRequestKey } from '../../../lib/use-request-key.ts';
import { useSubmit } from '../../../lib/use-submit.ts';
import { useValidatedForm } from '../../../lib/use-validated-form.ts';
import { createPromotion } from '../api/create-promotion.ts';

export const KIND_LABELS: Record<TPromotionKind, string> = {
  percent_off: 'Percent off the first charge',
  amount_off: 'Amount off the first charge',
  free_months: 'Free months',
};

const VALUE_LABELS: Record<TPromotionKind, string> = {
  percent_off: 'Percent off (1 to 100)',
  amount_off: 'Amount off in dollars',
  free_months: 'Free months (1 to 12)',
};

const FIELD_IDS = {
  code: 'promotion-code',
  kind: 'promotion-kind',
  value: 'promotion-value',
  description: 'promotion-description',
  expiresAt: 'promotion-expires',
  maxRedemptions: 'promotion-max',
  requiresCard: 'promotion-card',
} as const;

interface IFormValues {
  code: string;
  kind: TPromotionKind;
  value: string;
  description: string;
  expiresAt: string;
  maxRedemptions: string;
  requiresCard: boolean;
}

/**
 * What the staff member types, turned into the domain's request (dollars to cents, a local date
 * and time to an instant, empty to absent) and checked by the domain's schema, as the server will.
 */
function formSchema() {
  return z
    .object({
      code: z.string(),
      kind: z.enum(PROMOTION_KINDS),
      value: z.string(),
      description: z.string(),
      expiresAt: z.string(),
      maxRedemptions: z.string(),
      requiresCard: z.boolean(),
    })
    .transform((form) => ({
      code: form.code,
      kind: form.kind,
      value:
        form.kind === 'amount_off'
          ? Math.round(Number(form.value.trim() || Number.NaN) * 100)
          : Number(form.value.trim() || Number.NaN),
      description: form.description,
      ...(form.expiresAt ? { expiresAt: localToInstant(form.expiresAt) } : {}),
      ...(form.maxRedemptions.trim() ? { maxRedemptions: Number(form.maxRedemptions) } : {}),
      requiresCard: form.requiresCard,
      requestKey: FORM_CHECK_KEY,
    }))
    .pipe(ZCreatePromotionRequestSchema);
}

/** A datetime-local value (the member's own clock) as an ISO instant; unparseable stays as typed. */
function localToInstant(value: string): string {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : date.toISOString();
}

/** Billing staff create a promotion code (R12). */
export function PromotionForm({ onCreated }: { onCreated: () => void }) {
  const toast = useToast();
  // One key per code being made (decision 031): a double submit of the same code makes one code;
  // another code, or the next one after an answer, is a new request with a new key.
  const keys = useRequestKey();
  const {
    register,
    control,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isSubmitting },
    summary,
    onInvalid,
    errorSummary,
  } = useValidatedForm<IFormValues, TCreatePromotionRequest, keyof typeof FIELD_IDS>(
    formSchema(),
    FIELD_IDS,
    {
      defaultValues: {
        code: '',
        kind: 'percent_off',
        value: '',
        description: '',
        expiresAt: '',
        maxRedemptions: '',
        requiresCard: false,
      },
    },
  );
  const kind = useWatch({ control, name: 'kind' });

  const send = useSubmit({
    title: 'The code was not created',
    summary,
    fields: FIELD_IDS,
    setError,
    keys,
  });

  const onValid = async (values: TCreatePromotionRequest) => {
    const outcome = await send(() =>
      createPromotion({ ...values, requestKey: keys.keyFor(values) }),
    );
    if (!outcome.ok) return;
    toast.success(`The code ${values.code} was created.`);
    reset();
    onCreated();
  };

  return (
    <form
      className="admin-form"
      onSubmit={handleSubmit(onValid, onInvalid)}
      noValidate
      aria-labelledby="promotion-form-title"
    >
      <h2 id="promotion-form-title">New promotion code</h2>
      <ErrorSummary {...errorSummary} />
      <div className="admin-form__grid">
        <TextField
          id={FIELD_IDS.code}
          label="Code"
          hint="Letters, digits, dashes or underscores; saved in capitals."
          autoComplete="off"
          spellCheck={false}
          required
          {...register('code')}
          error={errors.code?.message}
        />
        <SelectField
          id={FIELD_IDS.kind}
          label="Kind"
          options={PROMOTION_KINDS.map((value) => ({ value, label: KIND_LABELS[value] }))}
          required
          {...register('kind')}
          error={errors.kind?.message}
        />
        <TextField
          id={FIELD_IDS.value}
          label={VALUE_LABELS[kind]}
          inputMode={kind === 'amount_off' ? 'decimal' : 'numeric'}
          autoComplete="off"
          required
          {...register('value')}
          error={errors.value?.message}
        />
        <TextField
          id={FIELD_IDS.maxRedemptions}
          label="Most redemptions"
          hint="Leave empty for no limit."
          inputMode="numeric"
          autoComplete="off"
          {...register('maxRedemptions')}
          error={errors.maxRedemptions?.message}
        />
        <TextField
          id={FIELD_IDS.expiresAt}
          label="Expires"
          hint="Leave empty for no end."
          type="datetime-local"
          {...register('expiresAt')}
          error={errors.expiresAt?.message}
        />
        <TextField
          id={FIELD_IDS.description}
          label="Description"
          hint="For staff; at most 200 characters."
          autoComplete="off"
          {...register('description')}
          error={errors.description?.message}
        />
      </div>
      <CheckboxField
        id={FIELD_IDS.requiresCard}
        label="Ask for a card at sign-up even when nothing is charged"
        {...register('requiresCard')}
      />
      <div className="form-actions">
        <SubmitButton busy={isSubmitting}>
          {isSubmitting ? 'Creating…' : 'Create code'}
        </SubmitButton>
      </div>
    </form>
  );
}
