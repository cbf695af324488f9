import { z } from 'zod';
import { STAFF_ROLES, type TStaffRole } from '@dealerpass/domain/admin/roles';
import {
  ZCreateStaffMemberRequestSchema,
  type TCreateStaffMemberRequest,
} from '@dealerpass/domain/admin/staff-members';
import { SubmitButton } from '../../../components/ui/button.tsx';
import { ErrorSummary } from '../../../components/ui/error-summary.tsx';
import { SelectField, TextField } from '../../../components/ui/fields.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { FORM_CHECK_KEY, useRequestKey } from '../../../lib/use-request-key.ts';
import { useSubmit } from '../../../lib/use-submit.ts';
import { useValidatedForm } from '../../../lib/use-validated-form.ts';
import { createStaffMember } from '../api/create-staff-member.ts';

export const ROLE_TEXT: Record<TStaffRole, string> = {
  support: 'Support: read accounts, resend, end sessions, block, answer messages',
  billing: 'Billing: support, plus refunds, balances, promotions',
  admin: 'Admin: billing, plus staff and prices',
};

const FIELD_IDS = {
  name: 'staff-name',
  email: 'staff-email',
  role: 'staff-role',
  password: 'staff-password',
} as const;

interface IFormValues {
  name: string;
  email: string;
  role: string;
  password: string;
}

/** An admin adds a staff member (R12); they enrol their authenticator at their first sign-in. */
export function StaffMemberForm({ onCreated }: { onCreated: () => void }) {
  const toast = useToast();
  // One key per member being added (decision 031): another member is a new request.
  const keys = useRequestKey();
  const schema = z
    .object({ name: z.string(), email: z.string(), role: z.string(), password: z.string() })
    .transform(({ password, ...form }) => ({
      ...form,
      ...(password ? { password } : {}),
      requestKey: FORM_CHECK_KEY,
    }))
    .pipe(ZCreateStaffMemberRequestSchema);
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isSubmitting },
    summary,
    onInvalid,
    errorSummary,
  } = useValidatedForm<IFormValues, TCreateStaffMemberRequest, keyof typeof FIELD_IDS>(
    schema,
    FIELD_IDS,
    { defaultValues: { name: '', email: '', role: '', password: '' } },
  );

  const send = useSubmit({
    title: 'The member was not added',
    summary,
    fields: FIELD_IDS,
    setError,
    keys,
  });

  const onValid = async (values: TCreateStaffMemberRequest) => {
    const outcome = await send(() =>
      createStaffMember({ ...values, requestKey: keys.keyFor(values) }),
    );
    if (!outcome.ok) return;
    toast.success(`${values.name} was added.`);
    reset();
    onCreated();
  };

  return (
    <form
      className="admin-form"
      onSubmit={handleSubmit(onValid, onInvalid)}
      noValidate
      aria-labelledby="staff-form-title"
    >
      <h2 id="staff-form-title">Add a staff member</h2>
      <ErrorSummary {...errorSummary} />
      <div className="admin-form__grid">
        <TextField
          id={FIELD_IDS.name}
          label="Name"
          autoComplete="off"
          required
          {...register('name')}
          error={errors.name?.message}
        />
        <TextField
          id={FIELD_IDS.email}
          label="E-mail"
          type="email"
          autoComplete="off"
          spellCheck={false}
          required
          {...register('email')}
          error={errors.email?.message}
        />
        <SelectField
          id={FIELD_IDS.role}
          label="Role"
          placeholder="Choose a role"
          options={STAFF_ROLES.map((role) => ({ value: role, label: ROLE_TEXT[role] }))}
          required
          {...register('role')}
          error={errors.role?.message}
        />
        <TextField
          id={FIELD_IDS.password}
          label="First password"
          hint="For the built-in sign-in; leave empty when staff sign in through the company's provider."
          type="password"
          autoComplete="new-password"
          {...register('password')}
          error={errors.password?.message}
        />
      </div>
      <div className="form-actions">
        <SubmitButton busy={isSubmitting}>{isSubmitting ? 'Adding…' : 'Add member'}</SubmitButton>
      </div>
    </form>
  );
}
