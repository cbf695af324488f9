import { useEffect, useRef, type ReactNode } from 'react';
import { errorPanel } from '@dealerpass/domain/messages/ui-texts';
import { runtimeConfig } from '../../../lib/runtime-config.ts';

/**
 * 000 §8: 'Unable to get configuration' and 'Unable to fetch Carfax tokens!' in a panel titled
 * 'An error has occurred.', followed by the request to call support at the configured number.
 * Announced and focused when it appears.
 */
export function ErrorPanel({ message, children }: { message: string; children?: ReactNode }) {
  const { title, body } = errorPanel(message, { phone: runtimeConfig().supportPhone });
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current?.focus();
  }, []);
  return (
    <div
      ref={ref}
      className="error-panel card"
      role="alert"
      tabIndex={-1}
      aria-labelledby="error-panel-title"
    >
      <h2 id="error-panel-title">{title}</h2>
      <p>{body}</p>
      {children}
    </div>
  );
}
