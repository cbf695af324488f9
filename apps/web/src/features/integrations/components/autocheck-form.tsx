import type { z } from 'zod';
import {
  AUTOCHECK_LABELS,
  ZAutoCheckFormSchema,
  autoPurchaseLogMessage,
  type TAutoCheckForm,
} from '@dealerpass/domain/schemas/autocheck';
import { SubmitButton } from '../../../components/ui/button.tsx';
import { ErrorSummary } from '../../../components/ui/error-summary.tsx';
import { TextField } from '../../../components/ui/fields.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { postDebugNote } from '../api/post-debug-note.ts';
import { updateAutoCheck } from '../api/update-autocheck.ts';
import type { IIntegrationUser } from '../integration-user.ts';
import { CheckboxField } from '../../../components/ui/checkbox-field.tsx';
import { useSubmit } from '../../../lib/use-submit.ts';
import { useValidatedForm } from '../../../lib/use-validated-form.ts';

const FIELD_IDS = {
  autoCheckId: 'autocheck-id',
  autoCheckPasswd: 'autocheck-password',
  autoCheckEnabled: 'autocheck-agree',
  autoCheckAutoPurchase: 'autocheck-auto-purchase',
} as const;
type TAutoCheckFormInput = z.input<typeof ZAutoCheckFormSchema>;

function defaultsOf(user: IIntegrationUser): TAutoCheckForm {
  return {
    autoCheckId: user.autoCheckId,
    autoCheckPasswd: '',
    autoCheckEnabled: user.autoCheckEnabled,
    autoCheckAutoPurchase: user.autoCheckAutoPurchase,
    autoCheckPasswdSet: user.autoCheckPasswdSet,
  };
}

/**
 * The AutoCheck integration form (000 §5, §7, §8): ID, password, agree and auto-purchase,
 * validated with the domain's schema (the server uses the same rules). Saved through
 * `PUT /api/users/current`; a credential failure lands on the ID and password fields. A change
 * of auto-purchase posts the debug note to /api/log. The password is never shown: the form says
 * when one is stored, and a blank field keeps it.
 */
export function AutoCheckForm({
  user,
  onSaved,
}: {
  user: IIntegrationUser;
  onSaved: () => Promise<unknown>;
}) {
  const toast = useToast();
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isSubmitting },
    summary,
    onInvalid,
    errorSummary,
  } = useValidatedForm<TAutoCheckFormInput, TAutoCheckForm, keyof typeof FIELD_IDS>(
    ZAutoCheckFormSchema,
    FIELD_IDS,
    {
      defaultValues: defaultsOf(user),
    },
  );

  const send = useSubmit({
    title: 'Your AutoCheck settings were not saved',
    summary,
    fields: FIELD_IDS,
    setError,
    // 000 §8: a failed submit also shows the generic error toast.
    onFailure: () => toast.error(),
  });

  const onValid = async (values: TAutoCheckForm) => {
    const outcome = await send(() =>
      updateAutoCheck({
        autoCheckId: values.autoCheckId,
        autoCheckPasswd: values.autoCheckPasswd,
        autoCheckEnabled: values.autoCheckEnabled,
        autoCheckAutoPurchase: values.autoCheckAutoPurchase,
      }),
    );
    if (!outcome.ok) return;
    toast.success();
    const passwordStored = values.autoCheckPasswd !== '' || values.autoCheckPasswdSet;
    const inUse =
      values.autoCheckId !== '' ||
      passwordStored ||
      values.autoCheckEnabled ||
      values.autoCheckAutoPurchase;
    reset({ ...values, autoCheckPasswd: '', autoCheckPasswdSet: inUse && passwordStored });
    await onSaved().catch(() => undefined);
  };

  const autoPurchase = register('autoCheckAutoPurchase', {
    onChange: (event: { target: { checked: boolean } }) => {
      // 000 §7: a debug note, best effort.
      postDebugNote(autoPurchaseLogMessage(event.target.checked), window.location.href).catch(
        () => undefined,
      );
    },
  });

  return (
    <form
      className="autocheck-form card"
      onSubmit={handleSubmit(onValid, onInvalid)}
      noValidate
      aria-label="AutoCheck integration"
    >
      <ErrorSummary {...errorSummary} />
      <TextField
        id={FIELD_IDS.autoCheckId}
        label={AUTOCHECK_LABELS.autoCheckId}
        autoComplete="off"
        spellCheck={false}
        {...register('autoCheckId')}
        error={errors.autoCheckId?.message}
      />
      <TextField
        id={FIELD_IDS.autoCheckPasswd}
        label={AUTOCHECK_LABELS.autoCheckPasswd}
        type="password"
        autoComplete="new-password"
        hint={
          user.autoCheckPasswdSet
            ? 'A password is saved. Leave this blank to keep it, or type a new one.'
            : undefined
        }
        {...register('autoCheckPasswd')}
        error={errors.autoCheckPasswd?.message}
      />
      <CheckboxField
        id={FIELD_IDS.autoCheckEnabled}
        label={`I agree to ${AUTOCHECK_LABELS.autoCheckEnabled}`}
        hint="DealerPass may use these credentials to open AutoCheck vehicle history reports for you."
        {...register('autoCheckEnabled')}
        error={errors.autoCheckEnabled?.message}
      />
      <CheckboxField
        id={FIELD_IDS.autoCheckAutoPurchase}
        label="Buy AutoCheck reports automatically"
        hint="When a report is not yet in your AutoCheck account, buy it without asking."
        {...autoPurchase}
        error={errors.autoCheckAutoPurchase?.message}
      />
      <div className="form-actions">
        <SubmitButton busy={isSubmitting}>{isSubmitting ? 'Saving…' : 'Save'}</SubmitButton>
      </div>
    </form>
  );
}
