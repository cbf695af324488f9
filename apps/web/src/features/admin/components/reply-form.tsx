import { z } from 'zod';
import {
  ZContactReplyRequestSchema,
  type TContactReplyRequest,
} from '@dealerpass/domain/staff/console-requests';
import { SubmitButton } from '../../../components/ui/button.tsx';
import { ErrorSummary } from '../../../components/ui/error-summary.tsx';
import { TextAreaField } from '../../../components/ui/fields.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { failureMessage, fieldErrorsOf } from '../../../lib/error-text.ts';
import { FORM_CHECK_KEY, useRequestKey } from '../../../lib/use-request-key.ts';
import { useValidatedForm } from '../../../lib/use-validated-form.ts';
import { replyToContactMessage } from '../api/reply-to-contact-message.ts';

const FIELD_IDS = { body: 'contact-reply-body' } as const;

/** A reply to a Contact Us message: e-mailed to the sender, kept with the message (R12). */
export function ReplyForm({
  messageId,
  email,
  onSent,
}: {
  messageId: string;
  email: string;
  onSent: () => void;
}) {
  const toast = useToast();
  // One key per reply (decision 031): another text or another message is a new request.
  const keys = useRequestKey();
  const schema = z
    .object({ body: z.string() })
    .transform((form) => ({ body: form.body, requestKey: FORM_CHECK_KEY }))
    .pipe(ZContactReplyRequestSchema);
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isSubmitting },
    summary,
    onInvalid,
    errorSummary,
  } = useValidatedForm<{ body: string }, TContactReplyRequest, 'body'>(schema, FIELD_IDS, {
    defaultValues: { body: '' },
  });

  const onValid = async (values: TContactReplyRequest) => {
    summary.clear();
    try {
      await replyToContactMessage(messageId, {
        ...values,
        requestKey: keys.keyFor({ ...values, messageId }),
      });
      keys.settle(undefined);
      toast.success(`The reply was sent to ${email}.`);
      reset();
      onSent();
    } catch (error) {
      keys.settle(error);
      for (const { field, message } of fieldErrorsOf(error, ['body'] as const)) {
        setError(field, { message });
      }
      summary.show('The reply was not sent', [{ message: failureMessage(error) }]);
    }
  };

  return (
    <form
      className="admin-form"
      onSubmit={handleSubmit(onValid, onInvalid)}
      noValidate
      aria-labelledby="contact-reply-title"
    >
      <h2 id="contact-reply-title">Reply</h2>
      <ErrorSummary {...errorSummary} />
      <TextAreaField
        id={FIELD_IDS.body}
        label={`Your reply to ${email}`}
        hint="Sent by e-mail from DealerPass support and kept with the message."
        rows={6}
        required
        {...register('body')}
        error={errors.body?.message}
      />
      <div className="form-actions">
        <SubmitButton busy={isSubmitting}>{isSubmitting ? 'Sending…' : 'Send reply'}</SubmitButton>
      </div>
    </form>
  );
}
