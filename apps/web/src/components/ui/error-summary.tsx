import { useCallback, useEffect, useId, useRef, useState, type ReactNode } from 'react';
import './error-summary.css';

export interface IErrorSummaryItem {
  message: string;
  /** The field the message is about: the item links to it and moves focus there. */
  fieldId?: string;
}

interface ErrorSummaryProps {
  title: string;
  items: readonly IErrorSummaryItem[];
  /** Increase it after a failed submit: the summary takes focus so the failure is heard. */
  focusKey: number;
  children?: ReactNode;
}

/**
 * The problems of a failed submit, above the form: announced (role=alert), focused, each field
 * problem a link to its field.
 */
export function ErrorSummary({ title, items, focusKey, children }: ErrorSummaryProps) {
  const ref = useRef<HTMLDivElement>(null);
  const titleId = useId();

  // Focus once per failed submit, when the summary has something to show: a live summary's field
  // problems can arrive a render after the submit that asked for focus.
  const focusedKey = useRef(0);
  const shown = items.length > 0;
  useEffect(() => {
    if (focusKey > focusedKey.current && shown) {
      focusedKey.current = focusKey;
      ref.current?.focus();
    }
  }, [focusKey, shown]);

  if (items.length === 0) return null;
  const unique = uniqueMessages(items);
  return (
    <div ref={ref} className="error-summary" role="alert" tabIndex={-1} aria-labelledby={titleId}>
      <h2 id={titleId} className="error-summary__title">
        {title}
      </h2>
      <ul className="error-summary__list">
        {unique.map((item) => (
          <li key={item.message}>
            {item.fieldId ? (
              <a
                href={`#${item.fieldId}`}
                onClick={(event) => {
                  event.preventDefault();
                  document.getElementById(item.fieldId!)?.focus();
                }}
              >
                {item.message}
              </a>
            ) : (
              item.message
            )}
          </li>
        ))}
      </ul>
      {children}
    </div>
  );
}

/**
 * 000 §8: the form-level list is deduplicated. Several fields can fail with one message (wrong
 * AutoCheck credentials mark both fields); it is listed once, linked to the first of them.
 */
function uniqueMessages(items: readonly IErrorSummaryItem[]): IErrorSummaryItem[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    if (seen.has(item.message)) return false;
    seen.add(item.message);
    return true;
  });
}

/**
 * The items for the fields that failed validation, in the order of `fieldIds`, each linking to
 * its field (pass react-hook-form's `FieldErrors`).
 */
export function invalidFieldItems<K extends string>(
  errors: Partial<Record<NoInfer<K>, { message?: string } | undefined>>,
  fieldIds: Readonly<Record<K, string>>,
): IErrorSummaryItem[] {
  return (Object.keys(fieldIds) as K[]).flatMap((field) => {
    const message = errors[field]?.message;
    return message ? [{ message, fieldId: fieldIds[field] }] : [];
  });
}

/**
 * The state behind an ErrorSummary: `show` after a failed submit (it bumps the focus key, so even
 * the same problems are focused and heard again), `clear` before the next try. Spread `props` on
 * the summary.
 */
export function useErrorSummary() {
  const [summary, setSummary] = useState<{ title: string; items: IErrorSummaryItem[] }>({
    title: '',
    items: [],
  });
  const [focusKey, setFocusKey] = useState(0);
  const show = useCallback((title: string, items: IErrorSummaryItem[]) => {
    setSummary({ title, items });
    setFocusKey((key) => key + 1);
  }, []);
  const clear = useCallback(() => setSummary({ title: '', items: [] }), []);
  /**
   * The props with the field problems read from the form's current errors instead of those of the
   * last submit: a fixed field leaves the list at once, a changed message changes, and the
   * summary goes when nothing is left. Problems about no field (a failed request) stay until the
   * next submit. Nothing shows before the first failed submit.
   */
  const live = <K extends string>(
    errors: Partial<Record<NoInfer<K>, { message?: string } | undefined>>,
    fieldIds: Readonly<Record<K, string>>,
  ) => {
    if (summary.items.length === 0) return { ...summary, focusKey };
    const items = [
      ...summary.items.filter((item) => !item.fieldId),
      ...invalidFieldItems(errors, fieldIds),
    ].filter((item, index, all) => all.findIndex((o) => o.message === item.message) === index);
    return { title: summary.title, items, focusKey };
  };
  return { props: { ...summary, focusKey }, show, clear, live };
}
