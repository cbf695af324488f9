import { useId, useMemo, useState } from 'react';
import { z } from 'zod';
import {
  ZRecordCheckRequestSchema,
  type IInvoice,
  type IInvoiceResult,
  type TRecordCheckRequest,
} from '@dealerpass/domain/schemas/annual-billing';
import { calendarDateIn, toIsoDate } from '@dealerpass/domain/time/calendar-date';
import { Button, SubmitButton } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { ErrorSummary } from '../../../components/ui/error-summary.tsx';
import { TextField } from '../../../components/ui/fields.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { failureMessage, fieldErrorsOf } from '../../../lib/error-text.ts';
import { runtimeConfig } from '../../../lib/runtime-config.ts';
import { FORM_CHECK_KEY, useRequestKey } from '../../../lib/use-request-key.ts';
import { useValidatedForm } from '../../../lib/use-validated-form.ts';
import type { IActionOutcome } from './action-dialog.tsx';
import { businessDate, money } from './format.ts';

const DOLLARS = /^\d{1,7}(\.\d{1,2})?$/;

/** What the fields hold: the amount as typed, in dollars (the request's field, in cents, on submit). */
interface IFormValues {
  checkNumber: string;
  amountCents: string;
  receivedOn: string;
}

type TCheckContent = Omit<TRecordCheckRequest, 'requestKey'>;

/**
 * The dialog's fields turned into the domain's request (dollars to cents) and checked by the
 * domain's schema, as the server checks it; the server adds what needs the invoice (the amount
 * must be what it leaves open).
 */
function formSchema() {
  return z
    .object({ checkNumber: z.string(), amountCents: z.string(), receivedOn: z.string() })
    .transform((form) => ({
      checkNumber: form.checkNumber,
      amountCents: DOLLARS.test(form.amountCents.trim())
        ? Math.round(Number(form.amountCents.trim()) * 100)
        : Number.NaN,
      receivedOn: form.receivedOn,
      requestKey: FORM_CHECK_KEY,
    }))
    .pipe(ZRecordCheckRequestSchema);
}

/** Today in the business time zone (R4), the date a check received today carries. */
function today(): string {
  return toIsoDate(calendarDateIn(new Date(), runtimeConfig().businessTimeZone));
}

/** The outcome the console reports once the server recorded the check (R14). */
export function checkRecordedOutcome(result: IInvoiceResult): IActionOutcome {
  const { invoice } = result;
  const check = invoice.check
    ? `Check ${invoice.check.number} for ${money(invoice.check.amountCents)}`
    : 'The check';
  return {
    tone: 'success',
    text: `${check} was recorded. Invoice ${invoice.number} is paid; the annual period runs from ${businessDate(invoice.periodStart)} to ${businessDate(invoice.periodEnd)}.`,
  };
}

/**
 * "Record a check" for an open invoice (R14, billing staff): check number, amount and date
 * received, one request key per intent (decision 031). The server's refusal, such as an amount
 * that is not what the invoice leaves open, is shown in the dialog, which stays open.
 */
export function RecordCheckButton({
  invoice,
  run,
  onDone,
}: {
  invoice: IInvoice;
  run: (body: TRecordCheckRequest) => Promise<IInvoiceResult>;
  onDone: (outcome: IActionOutcome) => void;
}) {
  const [opening, setOpening] = useState(0);
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        variant="secondary"
        aria-haspopup="dialog"
        onClick={() => {
          setOpening((count) => count + 1);
          setOpen(true);
        }}
      >
        Record a check
      </Button>
      <Dialog
        open={open}
        title={`Record a check for invoice ${invoice.number}`}
        onClose={() => setOpen(false)}
      >
        {opening > 0 ? (
          <RecordCheckForm
            key={opening}
            invoice={invoice}
            run={run}
            onCancel={() => setOpen(false)}
            onDone={(outcome) => {
              setOpen(false);
              onDone(outcome);
            }}
          />
        ) : null}
      </Dialog>
    </>
  );
}

function RecordCheckForm({
  invoice,
  run,
  onCancel,
  onDone,
}: {
  invoice: IInvoice;
  run: (body: TRecordCheckRequest) => Promise<IInvoiceResult>;
  onCancel: () => void;
  onDone: (outcome: IActionOutcome) => void;
}) {
  const toast = useToast();
  const keys = useRequestKey();
  const id = useId();
  const ids = useMemo(
    () => ({
      checkNumber: `${id}-number`,
      amountCents: `${id}-amount`,
      receivedOn: `${id}-received`,
    }),
    [id],
  );
  const [schema] = useState(formSchema);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
    summary,
    onInvalid,
    errorSummary,
  } = useValidatedForm<IFormValues, TRecordCheckRequest, keyof typeof ids>(schema, ids, {
    defaultValues: { checkNumber: '', amountCents: '', receivedOn: today() },
  });

  const onValid = async (values: TRecordCheckRequest) => {
    summary.clear();
    const content: TCheckContent = {
      checkNumber: values.checkNumber,
      amountCents: values.amountCents,
      receivedOn: values.receivedOn,
    };
    try {
      const result = await run({ ...content, requestKey: keys.keyFor(content) });
      keys.settle(undefined);
      const outcome = checkRecordedOutcome(result);
      toast.success(outcome.text);
      onDone(outcome);
    } catch (error) {
      keys.settle(error);
      for (const { field, message } of fieldErrorsOf(error, [
        'checkNumber',
        'amountCents',
        'receivedOn',
      ] as const)) {
        setError(field, { message });
      }
      summary.show('The check was not recorded', [{ message: failureMessage(error) }]);
    }
  };

  return (
    <form onSubmit={handleSubmit(onValid, onInvalid)} noValidate className="admin-action-form">
      <ErrorSummary {...errorSummary} />
      <div className="admin-action-form__description">
        <p>
          Invoice {invoice.number} asks {money(invoice.totalCents)}, due{' '}
          {businessDate(invoice.dueOn)}. The check must be for that amount. Once recorded, the
          account is billed annually from {businessDate(invoice.periodStart)} to{' '}
          {businessDate(invoice.periodEnd)}, and the dealer is e-mailed a receipt.
        </p>
      </div>
      <TextField
        id={ids.checkNumber}
        label="Check number"
        autoComplete="off"
        spellCheck={false}
        required
        data-dialog-initial-focus
        {...register('checkNumber')}
        error={errors.checkNumber?.message}
      />
      <TextField
        id={ids.amountCents}
        label="Amount"
        hint="In dollars, as written on the check, e.g. 734.40."
        inputMode="decimal"
        autoComplete="off"
        required
        {...register('amountCents')}
        error={errors.amountCents?.message}
      />
      <TextField
        id={ids.receivedOn}
        label="Date received"
        type="date"
        required
        {...register('receivedOn')}
        error={errors.receivedOn?.message}
      />
      <div className="dialog__footer">
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <SubmitButton busy={isSubmitting}>
          {isSubmitting ? 'Working…' : 'Record check'}
        </SubmitButton>
      </div>
    </form>
  );
}
