import { useEffect, useId, useRef, type ReactNode } from 'react';

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

  useEffect(() => {
    if (focusKey > 0) ref.current?.focus();
  }, [focusKey]);

  if (items.length === 0) return null;
  return (
    <div ref={ref} className="error-summary" role="alert" tabIndex={-1} aria-labelledby={titleId}>
      <h2 id={titleId} className="error-summary__title">
        {title}
      </h2>
      <ul className="error-summary__list">
        {items.map((item) => (
          <li key={`${item.fieldId ?? ''}:${item.message}`}>
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
