import { useEffect, useState } from 'react';
import { useWatch } from 'react-hook-form';
import { useNavigate } from '../../../lib/router/router.tsx';
import { ACCOUNT_ROUTES } from '@dealerpass/domain/account/account-routes';
import { ERROR_CODES, errorMessage } from '@dealerpass/domain/messages';
import { SUBSCRIPTIONS_TEXTS } from '@dealerpass/domain/messages/ui-texts';
import {
  CANCELLATION_MESSAGES,
  CANCELLATION_REASONS,
  CANCELLATION_REASON_LABELS,
  CANCEL_DETAIL_MAX_LENGTH,
  ZCancelSubscriptionFormSchema,
  needsDetail,
  remainingCharacters,
  toCancelSubscriptionRequest,
  type TCancelSubscriptionForm,
} from '@dealerpass/domain/schemas/cancellation';
import { Button, SubmitButton } from '../../../components/ui/button.tsx';
import { ChoiceGroup } from '../../../components/ui/choice-group.tsx';
import { ErrorSummary } from '../../../components/ui/error-summary.tsx';
import { TextAreaField } from '../../../components/ui/fields.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { cancelSubscription } from '../api/cancel-subscription.ts';
import { useCurrentUser } from '../current-user.tsx';
import '../account.css';
import { useSubmit } from '../../../lib/use-submit.ts';
import { useValidatedForm } from '../../../lib/use-validated-form.ts';

interface ICancelValues {
  cancellationReason: string;
  userProvidedCancelReason: string;
}

const REASON_CHOICES = CANCELLATION_REASONS.map((value) => ({
  value,
  label: CANCELLATION_REASON_LABELS[value],
}));

const FIELD_IDS = {
  cancellationReason: 'cancel-reason-business-is-slow',
  userProvidedCancelReason: 'cancel-detail',
} as const;

/**
 * /account/subscriptions/cancel (000 §4, §5, §8): one of nine reasons, detail text required for
 * two of them (5–250, with a counter). The first press of Cancel Subscription validates and turns
 * the button into Confirm Cancel; confirming sends the cancellation, says so, refetches the user
 * and goes to the subscriptions page with cancelled=true.
 */
export default function CancelSubscriptionPage() {
  const { refetch } = useCurrentUser();
  const toast = useToast();
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState(false);
  const {
    register,
    control,
    handleSubmit,
    formState: { errors, isSubmitting },
    summary,
    onInvalid,
    errorSummary,
  } = useValidatedForm<ICancelValues, TCancelSubscriptionForm, keyof typeof FIELD_IDS>(
    ZCancelSubscriptionFormSchema,
    FIELD_IDS,
    {
      // The radios start with no reason (''), which the schema refuses with its message.
      defaultValues: { cancellationReason: '', userProvidedCancelReason: '' },
    },
  );
  const reason = useWatch({ control, name: 'cancellationReason' });
  const detail = useWatch({ control, name: 'userProvidedCancelReason' }) ?? '';

  useEffect(() => {
    document.title = 'Cancel Subscription · DealerPass';
  }, []);

  // Any change after the first press asks for a new first press.
  const unconfirm = { onChange: () => setConfirming(false) };

  const send = useSubmit({
    onFailure: ({ error }) => {
      // 000 §8: the cancellation's own text for its status error, the generic toast otherwise.
      const cancelFailure =
        error instanceof ApiError && error.code === ERROR_CODES.CANCEL_ACCOUNT_FAILED;
      toast.error(cancelFailure ? errorMessage(ERROR_CODES.CANCEL_ACCOUNT_FAILED) : undefined);
      setConfirming(false);
    },
  });

  const onValid = async (values: TCancelSubscriptionForm) => {
    summary.clear();
    if (!confirming) {
      setConfirming(true);
      return;
    }
    const outcome = await send(() => cancelSubscription(toCancelSubscriptionRequest(values)));
    if (!outcome.ok) return;
    toast.success(CANCELLATION_MESSAGES.success);
    await refetch().catch(() => undefined);
    navigate(`${ACCOUNT_ROUTES.subscriptions}?cancelled=true`, { replace: true });
  };

  const detailNeeded = needsDetail(reason);
  const left = remainingCharacters(detail);
  return (
    <div className="page account-page">
      <h1>Cancel Subscription</h1>
      <form
        className="card account-form"
        noValidate
        aria-label="Cancel subscription"
        onSubmit={handleSubmit(onValid, onInvalid)}
      >
        <ErrorSummary {...errorSummary} />
        <ChoiceGroup
          legend="Why are you cancelling?"
          idPrefix="cancel-reason"
          options={REASON_CHOICES}
          {...register('cancellationReason', unconfirm)}
          error={errors.cancellationReason?.message}
        />
        <TextAreaField
          id={FIELD_IDS.userProvidedCancelReason}
          label={detailNeeded ? 'Please tell us more' : 'Anything else you would like to tell us?'}
          required={detailNeeded}
          maxLength={CANCEL_DETAIL_MAX_LENGTH}
          rows={4}
          hint={
            <span aria-live="polite" data-testid="remaining">
              {left} {left === 1 ? 'character' : 'characters'} remaining
            </span>
          }
          {...register('userProvidedCancelReason', unconfirm)}
          error={errors.userProvidedCancelReason?.message}
        />
        {confirming ? (
          <p className="account-notice" role="status">
            Press Confirm Cancel to cancel your subscription.
          </p>
        ) : null}
        <div className="form-actions">
          <SubmitButton busy={isSubmitting} className="button--danger">
            {confirming ? SUBSCRIPTIONS_TEXTS.confirmCancel : SUBSCRIPTIONS_TEXTS.cancelLink}
          </SubmitButton>
          <Button variant="secondary" onClick={() => navigate(ACCOUNT_ROUTES.subscriptions)}>
            Keep my subscription
          </Button>
        </div>
      </form>
    </div>
  );
}
