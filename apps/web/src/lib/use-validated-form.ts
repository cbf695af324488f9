import { zodResolver } from '@hookform/resolvers/zod';
import {
  useForm,
  type FieldErrors,
  type FieldValues,
  type Resolver,
  type UseFormProps,
} from 'react-hook-form';
import type { z } from 'zod';
import { invalidFieldItems, useErrorSummary } from '../components/ui/error-summary.tsx';

/**
 * A react-hook-form form checked by a domain schema, as every form of the app is set up: checked
 * once a field is left and then as it changes, focus left to the error summary (not the first
 * invalid field), and the summary listing the invalid fields after a failed submit.
 *
 * `TInput` is what the fields hold (any text); `TOutput`, the schema's output, is what a valid
 * submit receives. Spread `errorSummary` on the form's ErrorSummary and pass `onInvalid` as
 * `handleSubmit`'s second argument.
 */
export function useValidatedForm<TInput extends FieldValues, TOutput, K extends string>(
  schema: z.ZodType<TOutput>,
  fieldIds: Readonly<Record<K, string>>,
  options: Omit<UseFormProps<TInput, unknown, TOutput>, 'resolver'>,
) {
  const summary = useErrorSummary();
  const form = useForm<TInput, unknown, TOutput>({
    // The fields' types are the form's; the schema decides what is valid and what comes out.
    resolver: zodResolver(schema as never) as unknown as Resolver<TInput, unknown, TOutput>,
    mode: 'onTouched',
    shouldFocusError: false,
    ...options,
  });
  type TErrors = Parameters<typeof invalidFieldItems<K>>[0];
  const onInvalid = (invalid: FieldErrors<TInput>) =>
    summary.show('There is a problem', invalidFieldItems(invalid as TErrors, fieldIds));
  return {
    ...form,
    summary,
    onInvalid,
    errorSummary: summary.live(form.formState.errors as TErrors, fieldIds),
  };
}
