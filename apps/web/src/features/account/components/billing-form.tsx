import { useEffect, useMemo, useRef, useState, type FocusEvent } from 'react';
import { useWatch } from 'react-hook-form';
import { useQueryClient } from '@tanstack/react-query';
import type { ICardArea } from '@dealerpass/domain/account/billing-view';
import { GENERIC_FORM_ERROR } from '@dealerpass/domain/messages';
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
import { ErrorSummary, type IErrorSummaryItem } from '../../../components/ui/error-summary.tsx';
import { BillingAddressFields } from '../../../components/payment/billing-address-fields.tsx';
import { CardFields } from '../../../components/payment/card-fields.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { failureMessage, fieldErrorsOf } from '../../../lib/error-text.ts';
import { CardTokenizationError } from '../../../lib/payments/card-tokenization-error.ts';
import {
  reactivateAccount,
  updatePaymentProfile,
  type TPaymentProfileBody,
} from '../api/payment-profile.ts';
import { invalidatePaymentWrites } from '../api/get-payment-history.ts';
import { useCurrentUser, type ICurrentUser } from '../current-user.tsx';
import { useRequestKey } from '../../../lib/use-request-key.ts';
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
const FIELDS = Object.keys(FIELD_IDS) as TField[];
const ADDRESS_FIELDS = FIELDS.filter((field) => field.startsWith('billing')) as (keyof Omit<
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
  const queryClient = useQueryClient();
  const toast = useToast();
  const requestKeys = useRequestKey();
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

  // 000 §4: in UPDATE mode the first focus on a field asks before anything can be edited.
  const [editConfirmed, setEditConfirmed] = useState(area.formMode !== 'UPDATE');
  const [askEdit, setAskEdit] = useState(false);
  const ignoreNextFocus = useRef(false);
  const onFieldFocus = (event: FocusEvent<HTMLElement>) => {
    // The field keeps focus: the dialog returns it there when it closes.
    if (editConfirmed || askEdit) return;
    if (ignoreNextFocus.current) {
      ignoreNextFocus.current = false;
      return;
    }
    void event;
    setAskEdit(true);
  };
  const confirmEdit = () => {
    setValue('creditCardNumber', '');
    setValue('creditCardExpiration', '');
    setValue('creditCardCode', '');
    setEditConfirmed(true);
    setAskEdit(false);
  };
  const cancelEdit = () => {
    // Focus goes back to the field that asked; that focus must not ask again.
    ignoreNextFocus.current = true;
    setAskEdit(false);
  };

  const onSameChange = (checked: boolean) => {
    const values = checked ? billingFromAccount(user) : EMPTY_BILLING_ADDRESS;
    for (const field of ADDRESS_FIELDS) {
      setValue(field, values[field], { shouldDirty: true });
    }
    clearErrors(ADDRESS_FIELDS);
  };

  const showProblems = (items: IErrorSummaryItem[]) => {
    const unique = items.filter(
      (item, index) => items.findIndex((other) => other.message === item.message) === index,
    );
    summary.show('Your payment information was not saved', unique);
  };

  const onValid = async (values: TBillingForm) => {
    summary.clear();
    let card;
    try {
      // The tokenization code is loaded when a card is submitted, not with the page.
      const { tokenizeCard } = await import('../../../lib/payments/tokenize-card.ts');
      card = await tokenizeCard({
        cardNumber: values.creditCardNumber,
        expiration: values.creditCardExpiration,
        cvv: values.creditCardCode,
      });
    } catch (error) {
      if (error instanceof CardTokenizationError && error.errors.length > 0) {
        for (const { source, message } of error.errors) setError(source, { message });
        showProblems(
          error.errors.map((e) => ({ message: e.message, fieldId: FIELD_IDS[e.source] })),
        );
      } else {
        showProblems([{ message: error instanceof Error ? error.message : GENERIC_FORM_ERROR }]);
      }
      toast.error();
      return;
    }
    const billing = values.sameAddresses ? billingFromAccount(user) : values;
    const body: TPaymentProfileBody = {
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
    try {
      // Each carries its intent's key (docs/decisions/038): a resend acts no second time.
      if (area.submitAction === 'reactivate') {
        await reactivateAccount({ ...body, requestKey: requestKeys.keyFor(body) });
      } else await updatePaymentProfile({ ...body, requestKey: requestKeys.keyFor(body) });
      requestKeys.settle(undefined);
    } catch (error) {
      requestKeys.settle(error);
      toast.error();
      const problems = fieldErrorsOf(error, FIELDS);
      for (const { field, message } of problems) setError(field, { message });
      showProblems(
        problems.length > 0
          ? problems.map(({ field, message }) => ({ message, fieldId: FIELD_IDS[field] }))
          : [{ message: failureMessage(error) }],
      );
      return;
    }
    // A reactivation charges at once, and a new card retries a failed renewal (R4): either may
    // be a new payment, which Payment History shows without a reload.
    await Promise.all([refetch().catch(() => undefined), invalidatePaymentWrites(queryClient)]);
    toast.success();
    onDone(true);
  };

  const focusGuard = { onFocus: onFieldFocus };

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
            {...focusGuard}
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
          fieldProps={focusGuard}
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
          fieldProps={focusGuard}
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
      <Dialog
        open={askEdit}
        title={EDIT_PAYMENT_DIALOG.title}
        onClose={cancelEdit}
        footer={
          <>
            <Button onClick={confirmEdit}>{EDIT_PAYMENT_DIALOG.confirm}</Button>
            <Button variant="secondary" onClick={cancelEdit}>
              {EDIT_PAYMENT_DIALOG.cancel}
            </Button>
          </>
        }
      >
        <p>{EDIT_PAYMENT_DIALOG.question}</p>
        <p>{EDIT_PAYMENT_DIALOG.detail}</p>
      </Dialog>
    </>
  );
}
