import { z } from 'zod';
import {
  ZContactReplyRequestSchema,
  type TContactReplyRequest,
} from '@dealerpass/domain/admin/console-requests';
import { SubmitButton } from '../../../components/ui/button.tsx';
import { ErrorSummary } from '../../../components/ui/error-summary.tsx';
import { TextAreaField } from '../../../components/ui/fields.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { FORM_CHECK_KEY, useRequestKey } from '../../../lib/use-request-key.ts';
import { useSubmit } from '../../../lib/use-submit.ts';
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

  const send = useSubmit({
    title: 'The reply was not sent',
    summary,
    fields: FIELD_IDS,
    setError,
    keys,
  });

  const onValid = async (values: TContactReplyRequest) => {
    const outcome = await send(() =>
      replyToContactMessage(messageId, {
        ...values,
        requestKey: keys.keyFor({ ...values, messageId }),
      }),
    );
    if (!outcome.ok) return;
    toast.success(`The reply was sent to ${email}.`);
    reset();
    onSent();
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
