import { useMemo, useRef } from 'react';
import { ERROR_CODES } from '@dealerpass/domain/messages';
import { requestContent } from '@dealerpass/domain/request-key';
import { ApiError } from './api-client.ts';

/**
 * A key the form's schema checks the rest of a request with (the domain's schema asks for a
 * UUID); the request is sent with `keyFor`'s key in its place, never with this one.
 */
export const FORM_CHECK_KEY = '00000000-0000-4000-8000-000000000000';

/** A form's request keys: one per intent (docs/decisions/031). */
export interface RequestKeys {
  /**
   * The key for sending this content: the last key again when the content is what was sent last
   * and that request is not over (a double click, a retry after a lost answer or a refusal), a
   * new one otherwise. Only the content counts, not the key fields nor the order of fields.
   */
  keyFor(content: object): string;
  /**
   * How the last request ended. After a success, or a failure the server keeps as that request's
   * answer (a declined charge, a refund the gateway refused), the next submission is a new intent
   * with a new key, even with the same content. After any other failure (a refusal, which acts on
   * nothing and records no key; no answer at all) a resend of the same content keeps its key.
   */
  settle(outcome: unknown): void;
}

/**
 * One intent, one key (issue 25, docs/decisions/031). The console's forms kept the first
 * request's key for the whole visit, so the server took a second promotion for a repeat of the
 * first and answered "created" for a code it never made. A form asks `keyFor` its request's
 * content at every submission and tells `settle` how it ended.
 */
export function useRequestKey(): RequestKeys {
  const last = useRef<{ content: string; key: string } | null>(null);
  return useMemo(
    () => ({
      keyFor(content) {
        const text = requestContent(content);
        if (last.current?.content !== text) {
          last.current = { content: text, key: crypto.randomUUID() };
        }
        return last.current.key;
      },
      settle(outcome) {
        if (!over(outcome)) return;
        last.current = null;
      },
    }),
    [],
  );
}

/** Failures the server records as the answer to their key: a resend would only repeat them. */
const RECORDED_FAILURES: readonly string[] = [
  ERROR_CODES.REFUND_FAILED,
  ERROR_CODES.CHANGE_DECLINED,
];
const PAYMENT_DECLINED = 402;

/** Whether the last request is over: it succeeded, or failed in a way its key keeps. */
function over(outcome: unknown): boolean {
  if (!(outcome instanceof Error)) return true;
  return (
    outcome instanceof ApiError &&
    (outcome.status === PAYMENT_DECLINED || RECORDED_FAILURES.includes(outcome.code))
  );
}
