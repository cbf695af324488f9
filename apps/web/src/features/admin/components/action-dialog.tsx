import { useId, useMemo, useState, type ReactNode } from 'react';
import { z } from 'zod';
import { Button, SubmitButton } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { ErrorSummary } from '../../../components/ui/error-summary.tsx';
import { SelectField, TextAreaField, TextField } from '../../../components/ui/fields.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { failureMessage, fieldErrorsOf } from '../../../lib/error-text.ts';
import { useRequestKey } from '../../../lib/use-request-key.ts';
import { useValidatedForm } from '../../../lib/use-validated-form.ts';
import { money } from './format.ts';

/**
 * What an action came to, as the server answered it: 'success' is the only green one; a declined
 * charge is 'declined', an attempt whose answer is not known yet is 'pending'.
 */
export interface IActionOutcome {
  tone: 'success' | 'declined' | 'pending';
  text: string;
}

/** What an action's request carries besides its own path (decision 026). */
export interface IActionInput {
  /**
   * One per intent (decision 031): a double click or a retry of the same content sends the same
   * key, acted on once; other content typed in the dialog, or a new opening, a new key.
   */
  requestKey: string;
  /** Absent when the action's reason is optional and none was typed. */
  reason?: string;
  amountCents?: number;
  choice?: string;
}

export interface IActionDialogSpec {
  /** The button's text, and the dialog's title unless `title` is given. */
  label: string;
  title?: string;
  /** What will happen, in the staff member's words. */
  description: ReactNode;
  confirmLabel: string;
  /** A red confirm button: money moves or access ends. */
  danger?: boolean;
  /** An amount typed in dollars, sent in cents; `maxCents` caps it (a refund's refundable rest). */
  amount?: { label: string; maxCents?: number; defaultCents?: number };
  /** One choice of a few (e.g. credit or charge). */
  choice?: { label: string; options: readonly { value: string; label: string }[] };
  /**
   * What the server's answer says happened (a message reports the outcome, never the click): a
   * text when the action's only success is "done", or a function of the answer when the route
   * documents more than one outcome (a retried renewal: paid, declined or not answered).
   */
  done: string | ((result: unknown) => IActionOutcome);
  /** R12 asks a reason of most actions; a few (resend, end sessions, retry) take one if given. */
  reasonOptional?: boolean;
}

const REASON_MIN = 3;
const REASON_MAX = 500;
const DOLLARS = /^\d{1,7}(\.\d{1,2})?$/;

/** The dialog's form: R12's reason, and the amount as typed; cents are computed on submit. */
function formSchema(spec: IActionDialogSpec) {
  const reason = z
    .string()
    .trim()
    .min(REASON_MIN, { message: `Give a reason of at least ${REASON_MIN} characters.` })
    .max(REASON_MAX, { message: `Keep the reason under ${REASON_MAX} characters.` });
  return z.object({
    reason: spec.reasonOptional ? z.union([z.literal(''), reason]) : reason,
    amount: spec.amount
      ? z
          .string()
          .trim()
          .regex(DOLLARS, { message: 'Enter an amount in dollars, e.g. 12.50.' })
          .transform((value) => Math.round(Number(value) * 100))
          .refine((cents) => cents > 0, { message: 'Enter an amount above zero.' })
          .refine((cents) => spec.amount?.maxCents === undefined || cents <= spec.amount.maxCents, {
            message: `Enter at most ${money(spec.amount.maxCents)}.`,
          })
      : z.any().optional(),
    choice: spec.choice
      ? z.string().min(1, { message: `Choose the ${spec.choice.label.toLowerCase()}.` })
      : z.any().optional(),
  });
}

interface IFormValues {
  reason: string;
  amount: string;
  choice: string;
}

interface ActionButtonProps {
  spec: IActionDialogSpec;
  run: (input: IActionInput) => Promise<unknown>;
  /**
   * After the server answered: reload what the action changed, and show (and move focus to) the
   * outcome on the page, so focus does not fall to <body> when the button itself goes away.
   */
  onDone?: (outcome: IActionOutcome) => void;
  buttonVariant?: 'primary' | 'secondary' | 'link';
  disabled?: boolean;
}

/**
 * An action's button and its confirmation (R12, decision 026): a reason always, an amount where
 * money moves, and one request key per intent (what the dialog sends, in one opening).
 */
export function ActionButton({
  spec,
  run,
  onDone,
  buttonVariant = 'secondary',
  disabled,
}: ActionButtonProps) {
  // Each opening is a new form: what was typed and the keys it used are gone.
  const [opening, setOpening] = useState(0);
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        variant={buttonVariant}
        disabled={disabled}
        aria-haspopup="dialog"
        onClick={() => {
          setOpening((count) => count + 1);
          setOpen(true);
        }}
      >
        {spec.label}
      </Button>
      <Dialog open={open} title={spec.title ?? spec.label} onClose={() => setOpen(false)}>
        {opening > 0 ? (
          <ActionForm
            key={opening}
            spec={spec}
            run={run}
            onCancel={() => setOpen(false)}
            onDone={(outcome) => {
              setOpen(false);
              onDone?.(outcome);
            }}
          />
        ) : null}
      </Dialog>
    </>
  );
}

function ActionForm({
  spec,
  run,
  onCancel,
  onDone,
}: {
  spec: IActionDialogSpec;
  run: (input: IActionInput) => Promise<unknown>;
  onCancel: () => void;
  onDone: (outcome: IActionOutcome) => void;
}) {
  const toast = useToast();
  const keys = useRequestKey();
  const id = useId();
  const ids = useMemo(
    () => ({ reason: `${id}-reason`, amount: `${id}-amount`, choice: `${id}-choice` }),
    [id],
  );
  const schema = useMemo(() => formSchema(spec), [spec]);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
    summary,
    onInvalid,
    errorSummary,
  } = useValidatedForm<IFormValues, z.output<ReturnType<typeof formSchema>>, keyof typeof ids>(
    schema,
    ids,
    {
      defaultValues: {
        reason: '',
        amount:
          spec.amount?.defaultCents !== undefined
            ? (spec.amount.defaultCents / 100).toFixed(2)
            : '',
        choice: '',
      },
    },
  );

  const onValid = async (values: z.output<ReturnType<typeof formSchema>>) => {
    summary.clear();
    const content = {
      ...(values.reason ? { reason: values.reason } : {}),
      ...(spec.amount ? { amountCents: values.amount as number } : {}),
      ...(spec.choice ? { choice: values.choice as string } : {}),
    };
    try {
      const result = await run({ ...content, requestKey: keys.keyFor(content) });
      keys.settle(undefined);
      const outcome: IActionOutcome =
        typeof spec.done === 'string' ? { tone: 'success', text: spec.done } : spec.done(result);
      // Only a success is green; a decline or an unanswered charge is told as a problem.
      if (outcome.tone === 'success') toast.success(outcome.text);
      else toast.error(outcome.text);
      onDone(outcome);
    } catch (error) {
      keys.settle(error);
      const fields = fieldErrorsOf(error, ['reason', 'amountCents', 'amount'] as const);
      for (const { field, message } of fields) {
        setError(field === 'reason' ? 'reason' : 'amount', { message });
      }
      summary.show('The action was not taken', [{ message: failureMessage(error) }]);
    }
  };

  return (
    <form onSubmit={handleSubmit(onValid, onInvalid)} noValidate className="admin-action-form">
      <ErrorSummary {...errorSummary} />
      <div className="admin-action-form__description">{spec.description}</div>
      {spec.choice ? (
        <SelectField
          id={ids.choice}
          label={spec.choice.label}
          options={spec.choice.options}
          placeholder="Choose…"
          required
          data-dialog-initial-focus
          {...register('choice')}
          error={errors.choice?.message}
        />
      ) : null}
      {spec.amount ? (
        <TextField
          id={ids.amount}
          label={spec.amount.label}
          inputMode="decimal"
          autoComplete="off"
          required
          {...(spec.choice ? {} : { 'data-dialog-initial-focus': true })}
          hint={
            spec.amount.maxCents !== undefined
              ? `In dollars, at most ${money(spec.amount.maxCents)}.`
              : 'In dollars, e.g. 12.50.'
          }
          {...register('amount')}
          error={errors.amount?.message}
        />
      ) : null}
      <TextAreaField
        id={ids.reason}
        label={spec.reasonOptional ? 'Reason (optional)' : 'Reason'}
        hint="Kept in the audit log."
        required={!spec.reasonOptional}
        rows={3}
        {...(spec.choice || spec.amount ? {} : { 'data-dialog-initial-focus': true })}
        {...register('reason')}
        error={errors.reason?.message}
      />
      <div className="dialog__footer">
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <SubmitButton busy={isSubmitting} className={spec.danger ? 'button--danger' : undefined}>
          {isSubmitting ? 'Working…' : spec.confirmLabel}
        </SubmitButton>
      </div>
    </form>
  );
}
