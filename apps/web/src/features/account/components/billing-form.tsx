import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useWatch } from 'react-hook-form';
import type { ICardArea } from '@dealerpass/domain/account/billing-view';
import { EDIT_PAYMENT_DIALOG, BILLING_TEXTS } from '@dealerpass/domain/messages/ui-texts';
import {
  EMPTY_BILLING_ADDRESS,
  billingFromAccount,
  billingMatchesAccount,
  createBillingFormSchema,
  type TBillingForm,
} from '@dealerpass/domain/schemas/billing-form';
import { Button, SubmitButton } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { ErrorSummary } from '../../../components/ui/error-summary.tsx';
import { BillingAddressFields } from '../../../components/payment/billing-address-fields.tsx';
import { CardFields } from '../../../components/payment/card-fields.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { useSavePaymentProfile, type TPaymentProfileBody } from '../api/payment-profile.ts';
import { useCurrentUser, type ICurrentUser } from '../current-user.tsx';
import { useRequestKey } from '../../../lib/use-request-key.ts';
import { useSubmit } from '../../../lib/use-submit.ts';
import { useValidatedForm } from '../../../lib/use-validated-form.ts';

interface IBillingValues {
  sameAddresses: boolean;
  billingFirstName: string;
  billingLastName: string;
  billingCountry: string;
  billingAddress1: string;
  billingAddress2: string;
  billingCity: string;
  billingState: string;
  billingZip: string;
  creditCardNumber: string;
  creditCardExpiration: string;
  creditCardCode: string;
}

const FIELD_IDS: Record<Exclude<keyof IBillingValues, 'sameAddresses'>, string> = {
  billingFirstName: 'billing-first-name',
  billingLastName: 'billing-last-name',
  billingCountry: 'billing-country',
  billingAddress1: 'billing-address1',
  billingAddress2: 'billing-address2',
  billingCity: 'billing-city',
  billingState: 'billing-state',
  billingZip: 'billing-zip',
  creditCardNumber: 'card-number',
  creditCardExpiration: 'card-expiration',
  creditCardCode: 'card-cvv',
};
type TField = keyof typeof FIELD_IDS;
const ADDRESS_FIELDS = (Object.keys(FIELD_IDS) as TField[]).filter((field) =>
  field.startsWith('billing'),
) as (keyof Omit<
  IBillingValues,
  'sameAddresses' | 'creditCardNumber' | 'creditCardExpiration' | 'creditCardCode'
>)[];

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** MMYY as the field shows it: MM/YY. */
function expiryForField(mmyy: string): string {
  return /^\d{4}$/.test(mmyy) ? `${mmyy.slice(0, 2)}/${mmyy.slice(2)}` : mmyy;
}

function initialValues(user: ICurrentUser, mode: ICardArea['formMode']): IBillingValues {
  const stored = {
    billingFirstName: text(user.billingFirstName),
    billingLastName: text(user.billingLastName),
    billingCountry: text(user.billingCountry),
    billingAddress1: text(user.billingAddress1),
    billingAddress2: text(user.billingAddress2),
    billingCity: text(user.billingCity),
    billingState: text(user.billingState),
    billingZip: text(user.billingZip),
  };
  const hasStoredAddress = stored.billingAddress1 !== '';
  const same = hasStoredAddress && billingMatchesAccount(stored, user);
  return {
    sameAddresses: same,
    ...(same ? billingFromAccount(user) : stored),
    // UPDATE mode shows the stored card until the user confirms editing (000 §4).
    creditCardNumber: mode === 'UPDATE' ? text(user.creditCardNumber) : '',
    creditCardExpiration: mode === 'UPDATE' ? expiryForField(text(user.creditCardExpiration)) : '',
    creditCardCode: '',
  };
}

/**
 * 000 §4: in UPDATE mode the first focus on a field asks 'EDIT PAYMENT INFO' before anything can
 * be edited; confirming clears the stored card. `guard` goes on every field; `dialog` is the
 * question.
 */
function useEditConfirmation(mode: ICardArea['formMode'], clearCard: () => void) {
  const [confirmed, setConfirmed] = useState(mode !== 'UPDATE');
  const [asking, setAsking] = useState(false);
  const ignoreNextFocus = useRef(false);
  const onFocus = () => {
    // The field keeps focus: the dialog returns it there when it closes.
    if (confirmed || asking) return;
    if (ignoreNextFocus.current) {
      ignoreNextFocus.current = false;
      return;
    }
    setAsking(true);
  };
  const confirm = () => {
    clearCard();
    setConfirmed(true);
    setAsking(false);
  };
  const cancel = () => {
    // Focus goes back to the field that asked; that focus must not ask again.
    ignoreNextFocus.current = true;
    setAsking(false);
  };
  const dialog: ReactNode = (
    <Dialog
      open={asking}
      title={EDIT_PAYMENT_DIALOG.title}
      onClose={cancel}
      footer={
        <>
          <Button onClick={confirm}>{EDIT_PAYMENT_DIALOG.confirm}</Button>
          <Button variant="secondary" onClick={cancel}>
            {EDIT_PAYMENT_DIALOG.cancel}
          </Button>
        </>
      }
    >
      <p>{EDIT_PAYMENT_DIALOG.question}</p>
      <p>{EDIT_PAYMENT_DIALOG.detail}</p>
    </Dialog>
  );
  return { guard: { onFocus }, dialog };
}

/** The card goes to the gateway's tokenizer (R5); its code loads when a card is submitted. */
async function tokenize(values: TBillingForm) {
  const { tokenizeCard } = await import('../../../lib/payments/tokenize-card.ts');
  return tokenizeCard({
    cardNumber: values.creditCardNumber,
    expiration: values.creditCardExpiration,
    cvv: values.creditCardCode,
  });
}

/** What the API gets: the token and card summary, and the billing address (the account's when the box is ticked). */
function paymentProfileBody(
  values: TBillingForm,
  card: Awaited<ReturnType<typeof tokenize>>,
  user: ICurrentUser,
): TPaymentProfileBody {
  const billing = values.sameAddresses ? billingFromAccount(user) : values;
  return {
    dealerpassUserId: user.dealerpassUserId,
    ...card,
    billingFirstName: billing.billingFirstName,
    billingLastName: billing.billingLastName,
    billingCountry: billing.billingCountry as TPaymentProfileBody['billingCountry'],
    billingAddress1: billing.billingAddress1,
    billingAddress2: billing.billingAddress2,
    billingCity: billing.billingCity,
    billingState: billing.billingState,
    billingZip: billing.billingZip,
    sameAddresses: values.sameAddresses,
  };
}

interface BillingFormProps {
  area: ICardArea;
  /** Opened by the user (EDIT, ADD NEW CARD): focus moves to the form so it is not lost. */
  focusOnOpen?: boolean;
  /** Closed: `saved` after a successful submit, false for Cancel. */
  onDone: (saved: boolean) => void;
}

/**
 * The billing form (000 §2, §4, §5): the same-address box, the billing name and address, and the
 * card fields, whose values go to the payment gateway only (R5): our API gets the token. In
 * UPDATE mode, focusing a field first asks 'EDIT PAYMENT INFO' once and clears the stored card.
 * Submitting on an inactive account reactivates it; otherwise it updates the payment profile.
 */
export function BillingForm({ area, focusOnOpen = false, onDone }: BillingFormProps) {
  const { user, refetch } = useCurrentUser();
  const toast = useToast();
  const requestKeys = useRequestKey();
  const save = useSavePaymentProfile(area.submitAction === 'reactivate' ? 'reactivate' : 'update');
  const schema = useMemo(() => createBillingFormSchema(() => new Date()), []);
  const {
    register,
    control,
    handleSubmit,
    setValue,
    setError,
    clearErrors,
    formState: { errors, isSubmitting },
    summary,
    onInvalid,
    errorSummary,
  } = useValidatedForm<IBillingValues, TBillingForm, TField>(schema, FIELD_IDS, {
    defaultValues: initialValues(user, area.formMode),
  });
  // The form itself takes focus, not its first field: in UPDATE mode focusing a field asks
  // 'EDIT PAYMENT INFO', which the user has not asked for yet.
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (focusOnOpen) formRef.current?.focus();
    // Only when the form first appears.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const same = useWatch({ control, name: 'sameAddresses' });
  const country = useWatch({ control, name: 'billingCountry' });
  const edit = useEditConfirmation(area.formMode, () => {
    setValue('creditCardNumber', '');
    setValue('creditCardExpiration', '');
    setValue('creditCardCode', '');
  });

  const onSameChange = (checked: boolean) => {
    const values = checked ? billingFromAccount(user) : EMPTY_BILLING_ADDRESS;
    for (const field of ADDRESS_FIELDS) {
      setValue(field, values[field], { shouldDirty: true });
    }
    clearErrors(ADDRESS_FIELDS);
  };

  const send = useSubmit({
    title: 'Your payment information was not saved',
    summary,
    fields: FIELD_IDS,
    setError,
    keys: requestKeys,
    // 000 §8: a failed submit also shows the generic error toast.
    onFailure: () => toast.error(),
  });

  const onValid = async (values: TBillingForm) => {
    const outcome = await send(async () => {
      const body = paymentProfileBody(values, await tokenize(values), user);
      // Its intent's key (docs/decisions/038): a resend acts no second time.
      return save.mutateAsync({ ...body, requestKey: requestKeys.keyFor(body) });
    });
    if (!outcome.ok) return;
    await refetch().catch(() => undefined);
    toast.success();
    onDone(true);
  };

  return (
    <>
      <form
        ref={formRef}
        tabIndex={-1}
        className="billing-form"
        noValidate
        aria-label="Billing details"
        onSubmit={handleSubmit(onValid, onInvalid)}
      >
        <ErrorSummary {...errorSummary} />
        <p className="form-note" id="billing-message">
          Enter the card you would like us to charge each month and its billing address. Card
          details go straight to our payment processor.
        </p>
        <div className="checkbox-field">
          <input
            type="checkbox"
            id="billing-same"
            {...register('sameAddresses', {
              onChange: (event: { target: { checked: boolean } }) =>
                onSameChange(event.target.checked),
            })}
            {...edit.guard}
          />
          <label htmlFor="billing-same">{BILLING_TEXTS.sameAddress}</label>
        </div>
        <BillingAddressFields
          register={register}
          setValue={setValue}
          ids={FIELD_IDS}
          errors={errors}
          className="billing-form__group"
          country={country}
          layout="country-first"
          required={!same}
          locked={same}
          countryPlaceholder="Select a country"
          regionPlaceholder={(region) => `Select a ${region}`}
          fieldProps={edit.guard}
        />
        <CardFields
          register={register}
          setValue={setValue}
          ids={FIELD_IDS}
          errors={errors}
          legend="Card"
          className="billing-form__group"
          labels={{ number: 'Credit card number', expiration: 'Expiration (MM/YY)' }}
          required={{ number: true, details: true }}
          fieldProps={edit.guard}
        />
        <div className="form-actions">
          <SubmitButton busy={isSubmitting}>
            {isSubmitting ? 'Saving…' : area.submitLabel}
          </SubmitButton>
          {area.showCancelButton ? (
            <Button variant="secondary" onClick={() => onDone(false)} disabled={isSubmitting}>
              Cancel
            </Button>
          ) : null}
        </div>
      </form>
      {edit.dialog}
    </>
  );
}
