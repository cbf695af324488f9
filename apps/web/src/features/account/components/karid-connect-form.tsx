import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useState, type MouseEvent } from 'react';
import { useForm, useWatch, type FieldErrors, type Resolver } from 'react-hook-form';
import {
  ZConnectKarIdRequestSchema,
  type TConnectKarIdRequest,
} from '@dealerpass/domain/schemas/identity';
import { Button } from '../../../components/ui/button.tsx';
import { TextField } from '../../../components/ui/fields.tsx';
import { connectKarId } from '../api/connect-karid.ts';
import { failureMessage, fieldErrorsOf } from '../error-text.ts';
import { ErrorSummary, type IErrorSummaryItem } from './error-summary.tsx';

/**
 * Pressing submit does not blur the field first: the message that blur would show moves the
 * button away before the click lands. Validation runs on submit anyway.
 */
const keepFocusOnPress = (event: MouseEvent) => event.preventDefault();

type TMode = TConnectKarIdRequest['mode'];

/** Both ways' fields in one form, so switching keeps what was typed. */
interface IConnectFormValues {
  mode: TMode;
  email: string;
  password: string;
  confirmPassword: string;
}

const FIELD_IDS = {
  email: 'karid-email',
  password: 'karid-password',
  confirmPassword: 'karid-confirm-password',
} as const;
type TField = keyof typeof FIELD_IDS;
const FIELDS = Object.keys(FIELD_IDS) as TField[];

// The domain's schema is a union on `mode`; it reads only the chosen way's fields.
const resolver = zodResolver(ZConnectKarIdRequestSchema) as unknown as Resolver<
  IConnectFormValues,
  unknown,
  TConnectKarIdRequest
>;

const MODES: { value: TMode; label: string; hint: string }[] = [
  {
    value: 'create',
    label: 'Create a DealerPass ID',
    hint: 'Choose the email address and password you will sign in with from now on.',
  },
  {
    value: 'link',
    label: 'Link an existing DealerPass ID',
    hint: 'Sign in to the DealerPass ID you already have to connect it to this account.',
  },
];

export const PASSWORD_RULE_HINT =
  'At least 8 characters and no spaces, with a lower-case letter, an upper-case letter, a number and a special character.';

interface KarIdConnectFormProps {
  defaultEmail: string;
  /** Called once the server has connected the DealerPass ID. */
  onConnected: () => Promise<void>;
}

/** Create or link a DealerPass ID for a migrated account (DECISIONS R6). */
export function KarIdConnectForm({ defaultEmail, onConnected }: KarIdConnectFormProps) {
  const groupId = useId();
  const [summary, setSummary] = useState<{ title: string; items: IErrorSummaryItem[] }>({
    title: '',
    items: [],
  });
  const [focusKey, setFocusKey] = useState(0);
  const {
    register,
    control,
    handleSubmit,
    setError,
    clearErrors,
    formState: { errors, isSubmitting },
  } = useForm<IConnectFormValues, unknown, TConnectKarIdRequest>({
    resolver,
    mode: 'onTouched',
    shouldFocusError: false,
    defaultValues: { mode: 'create', email: defaultEmail, password: '', confirmPassword: '' },
  });
  const mode = useWatch({ control, name: 'mode' });

  const show = (title: string, items: IErrorSummaryItem[]) => {
    setSummary({ title, items });
    setFocusKey((key) => key + 1);
  };

  const onValid = async (values: TConnectKarIdRequest) => {
    setSummary({ title: '', items: [] });
    try {
      await connectKarId(values);
    } catch (error) {
      const problems = fieldErrorsOf(error, FIELDS);
      for (const { field, message } of problems) setError(field, { message });
      show(
        'Your DealerPass ID was not connected',
        problems.length > 0
          ? problems.map(({ field, message }) => ({ message, fieldId: FIELD_IDS[field] }))
          : [{ message: failureMessage(error) }],
      );
      return;
    }
    await onConnected();
  };

  const onInvalid = (invalid: FieldErrors<IConnectFormValues>) => {
    show(
      'There is a problem',
      FIELDS.flatMap((field) => {
        const message = invalid[field]?.message;
        return message ? [{ message, fieldId: FIELD_IDS[field] }] : [];
      }),
    );
  };

  const creating = mode === 'create';
  return (
    <form
      className="karid-form card"
      onSubmit={handleSubmit(onValid, onInvalid)}
      noValidate
      aria-label="Connect a DealerPass ID"
    >
      <ErrorSummary title={summary.title} items={summary.items} focusKey={focusKey} />
      <fieldset className="choice-group">
        <legend className="choice-group__legend">What would you like to do?</legend>
        {MODES.map((option) => (
          <div className="choice" key={option.value}>
            <input
              type="radio"
              id={`${groupId}-${option.value}`}
              value={option.value}
              aria-describedby={`${groupId}-${option.value}-hint`}
              {...register('mode', { onChange: () => clearErrors() })}
            />
            <label htmlFor={`${groupId}-${option.value}`}>{option.label}</label>
            <p id={`${groupId}-${option.value}-hint`} className="choice__hint">
              {option.hint}
            </p>
          </div>
        ))}
      </fieldset>
      <TextField
        id={FIELD_IDS.email}
        label="Email"
        type="email"
        autoComplete={creating ? 'email' : 'username'}
        spellCheck={false}
        required
        {...register('email')}
        error={errors.email?.message}
      />
      <TextField
        id={FIELD_IDS.password}
        label={creating ? 'New password' : 'Password'}
        type="password"
        autoComplete={creating ? 'new-password' : 'current-password'}
        required
        hint={creating ? PASSWORD_RULE_HINT : undefined}
        {...register('password')}
        error={errors.password?.message}
      />
      {creating ? (
        <TextField
          id={FIELD_IDS.confirmPassword}
          label="Confirm new password"
          type="password"
          autoComplete="new-password"
          required
          {...register('confirmPassword')}
          error={errors.confirmPassword?.message}
        />
      ) : null}
      <div className="form-actions">
        <Button type="submit" busy={isSubmitting} onMouseDown={keepFocusOnPress}>
          {isSubmitting ? 'Saving…' : creating ? 'Create DealerPass ID' : 'Link DealerPass ID'}
        </Button>
      </div>
    </form>
  );
}
