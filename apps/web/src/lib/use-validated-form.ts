import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
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
 * A form's schema, or a function that imports it. A page whose first paint matters passes the
 * import (`() => import('@dealerpass/domain/schemas/…').then(…)`): zod and the schema then load
 * when the person first touches the page, not before it is painted (docs/decisions/027).
 */
export type TSchemaSource<TOutput> = z.ZodType<TOutput> | (() => Promise<z.ZodType<TOutput>>);

/** Events that show a person is about to use a form: the schema is fetched then. */
const FIRST_USE_EVENTS = ['pointerdown', 'keydown', 'focusin', 'touchstart'] as const;

/**
 * A resolver that checks with the schema once it has arrived; the first check waits for it.
 * `warm()` starts the import early. A failed import is tried again at the next check.
 */
function lazyResolver<TInput extends FieldValues, TOutput>(source: TSchemaSource<TOutput>) {
  let ready: Promise<Resolver<TInput, unknown, TOutput>> | undefined;
  const warm = () => {
    ready ??= (typeof source === 'function' ? source() : Promise.resolve(source)).then(
      // The fields' types are the form's; the schema decides what is valid and what comes out.
      (schema) => zodResolver(schema as never) as unknown as Resolver<TInput, unknown, TOutput>,
      (error: unknown) => {
        ready = undefined;
        throw error;
      },
    );
    return ready;
  };
  const resolver: Resolver<TInput, unknown, TOutput> = async (values, context, options) =>
    (await warm())(values, context, options);
  return { resolver, warm };
}

/**
 * A react-hook-form resolver for a schema or its import: the import starts at the page's first
 * pointer, key or focus event, and a check that comes earlier waits for it. The schema given
 * first is the form's for its lifetime.
 */
export function useSchemaResolver<TInput extends FieldValues, TOutput>(
  schema: TSchemaSource<TOutput>,
): Resolver<TInput, unknown, TOutput> {
  const [{ resolver, warm }] = useState(() => lazyResolver<TInput, TOutput>(schema));
  useEffect(() => {
    const start = () => {
      stop();
      warm().catch(() => undefined); // the check that needs it tries again
    };
    const stop = () => {
      for (const type of FIRST_USE_EVENTS) window.removeEventListener(type, start, true);
    };
    for (const type of FIRST_USE_EVENTS) {
      window.addEventListener(type, start, { capture: true, passive: true });
    }
    return stop;
  }, [warm]);
  return resolver;
}

/**
 * A react-hook-form form checked by a domain schema, as every form of the app is set up: checked
 * once a field is left and then as it changes, focus left to the error summary (not the first
 * invalid field), and the summary listing the invalid fields after a failed submit.
 *
 * `TInput` is what the fields hold (any text); `TOutput`, the schema's output, is what a valid
 * submit receives. Spread `errorSummary` on the form's ErrorSummary and pass `onInvalid` as
 * `handleSubmit`'s second argument. The schema given first is the form's for its lifetime.
 */
export function useValidatedForm<TInput extends FieldValues, TOutput, K extends string>(
  schema: TSchemaSource<TOutput>,
  fieldIds: Readonly<Record<K, string>>,
  options: Omit<UseFormProps<TInput, unknown, TOutput>, 'resolver'>,
) {
  const summary = useErrorSummary();
  const resolver = useSchemaResolver<TInput, TOutput>(schema);
  const form = useForm<TInput, unknown, TOutput>({
    resolver,
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
