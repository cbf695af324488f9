/**
 * useSubmit: how every form of the app sends a write and says what happened (issue 25's class
 * rule: a message reports the server's outcome, never the click). It replaces the failure block
 * each form used to copy (field errors on their fields, the summary, the request key settled).
 *
 * The whole API:
 *
 *   const send = useSubmit({
 *     title: 'Your changes were not saved', // the failure summary's heading
 *     summary,                              // the form's useErrorSummary() (or useValidatedForm's)
 *     fields: FIELD_IDS, setError,          // optional: a 400's field errors go on these fields
 *     keys,                                 // optional: the form's useRequestKey(), settled here
 *     onFailure: (o) => toast.error(o.message), // optional: anything more a failure does
 *   });
 *   const outcome = await send(() => updateProfile(values));
 *   if (outcome.ok) toast.success(); // only here: nothing else may look like success
 *
 * `send` never throws for a failed request: it answers an outcome. `outcome.kind` is what the
 * server said (success, invalid, declined, conflict, refused, unavailable, offline, or failed for
 * anything that is no server answer, e.g. a card the gateway's tokenizer refused) and
 * `outcome.message` the text to show for it: the server's own message, else the catalogue's for
 * the status. `outcome.tone` is 'success' only when the server said success; give it to whatever
 * colours the message.
 */
import type { IErrorSummaryItem } from '../components/ui/error-summary.tsx';
import { ApiError } from './api-client.ts';
import { failureMessage } from './error-text.ts';
import type { RequestKeys } from './use-request-key.ts';

/** What the server answered, in the words the class rule uses. */
export type TSubmitOutcomeKind =
  | 'success'
  /** 400 or 422: the request was refused for its content (often with field errors). */
  | 'invalid'
  /** 402, or the gateway's refusal of a refund: a charge or refund that did not happen. */
  | 'declined'
  /** 409: another request, another window or an existing record came first. */
  | 'conflict'
  /** Any other 4xx: not allowed, not found, signed out, too many tries. */
  | 'refused'
  /** 5xx: the server or a system behind it failed. */
  | 'unavailable'
  /** No answer at all: the network or the server could not be reached. */
  | 'offline'
  /** Not a server answer: the card tokenizer's refusal, or an error in the page itself. */
  | 'failed';

export type TSubmitOutcome<T> =
  | { ok: true; kind: 'success'; tone: 'success'; value: T }
  | {
      ok: false;
      kind: Exclude<TSubmitOutcomeKind, 'success'>;
      tone: 'problem';
      /** The one text for the failure (the server's message, else the catalogue's). */
      message: string;
      /** The summary's items: each field error linked to its field, others as they are. */
      items: IErrorSummaryItem[];
      error: unknown;
    };

export type TSubmitFailure = Extract<TSubmitOutcome<unknown>, { ok: false }>;

export interface ISubmitOptions<K extends string> {
  /** The heading of the failure summary, e.g. 'Your changes were not saved'. */
  title?: string;
  /** Where failures are listed; without it the form shows `outcome.message` itself. */
  summary?: { show(title: string, items: IErrorSummaryItem[]): void; clear(): void };
  /** Field name → element id: the server's field errors for these link to their field. */
  fields?: Readonly<Record<K, string>>;
  /** Marks a field with the server's message for it (react-hook-form's `setError`). */
  setError?: (field: NoInfer<K>, error: { message: string }) => void;
  /** Server field names that the form shows under another of its fields (unknown ones are listed). */
  aliases?: Readonly<Record<string, string>>;
  /** The form's request keys: settled with the outcome (docs/decisions/031). */
  keys?: RequestKeys;
  /** Anything else a failure does (a toast, a new captcha); runs after the summary is shown. */
  onFailure?: (outcome: TSubmitFailure) => void;
}

const PAYMENT_DECLINED = 402;
const CONFLICT = 409;
/** Failures that are a gateway's no although their status is 5xx. */
const DECLINED_CODES: readonly string[] = ['REFUND_FAILED'];

/** The kind of answer a failure is. */
export function failureKind(error: unknown): TSubmitFailure['kind'] {
  if (!(error instanceof ApiError)) return 'failed';
  if (error.status === 0) return 'offline';
  if (error.status === PAYMENT_DECLINED || DECLINED_CODES.includes(error.code)) return 'declined';
  if (error.status === CONFLICT) return 'conflict';
  if (error.status === 400 || error.status === 422) return 'invalid';
  if (error.status >= 500) return 'unavailable';
  return 'refused';
}

/**
 * A failure's field errors: the server's, or the card tokenizer's (a CardTokenizationError, told
 * by its list rather than its class, so that this module does not load the class).
 */
function listedErrors(error: unknown): { source: string; message: string }[] {
  const errors = (error as { errors?: unknown } | null)?.errors;
  return Array.isArray(errors) ? (errors as { source: string; message: string }[]) : [];
}

/** The text for a failure: the server's own message or the catalogue's, else the error's own. */
function messageOf(error: unknown): string {
  if (!(error instanceof ApiError) && error instanceof Error && error.message) return error.message;
  return failureMessage(error);
}

/**
 * A failure as the form shows it: field errors (the server's or the card tokenizer's) on their
 * fields and linked from the summary, the others listed as they are, and the failure's message
 * when there is neither. Pure, apart from calling `setError`.
 */
export function describeFailure<K extends string>(
  error: unknown,
  options: Pick<ISubmitOptions<K>, 'fields' | 'setError' | 'aliases'> = {},
): TSubmitFailure {
  const { fields, setError, aliases } = options;
  const listed = listedErrors(error);
  const items: IErrorSummaryItem[] = [];
  for (const entry of listed) {
    if (!entry.message) continue;
    const field = (aliases?.[entry.source] ?? entry.source) as K;
    if (fields && Object.hasOwn(fields, field)) {
      setError?.(field, { message: entry.message });
      items.push({ message: entry.message, fieldId: fields[field] });
    } else {
      items.push({ message: entry.message });
    }
  }
  const message = messageOf(error);
  if (items.length === 0) items.push({ message });
  const unique = items.filter(
    (item, index) => items.findIndex((other) => other.message === item.message) === index,
  );
  return { ok: false, kind: failureKind(error), tone: 'problem', message, items: unique, error };
}

export type TSend = <T>(call: () => Promise<T>) => Promise<TSubmitOutcome<T>>;

/**
 * See the top of this file. The function it returns is made afresh at each render, with that
 * render's options (a summary and callbacks are new objects at each render anyway).
 */
export function useSubmit<K extends string = string>(options: ISubmitOptions<K> = {}): TSend {
  const { title, summary, keys, onFailure } = options;
  return async <T>(call: () => Promise<T>): Promise<TSubmitOutcome<T>> => {
    summary?.clear();
    try {
      const value = await call();
      keys?.settle(undefined);
      return { ok: true, kind: 'success', tone: 'success', value };
    } catch (error) {
      keys?.settle(error);
      const failure = describeFailure(error, options);
      summary?.show(title ?? 'There is a problem', failure.items);
      onFailure?.(failure);
      return failure;
    }
  };
}
