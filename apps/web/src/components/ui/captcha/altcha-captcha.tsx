import { useEffect, useId, useRef, useState } from 'react';
import { request } from '../../../lib/api-client.ts';
import type { CaptchaProps } from './captcha.tsx';
import { altchaExpiryDelay, solveAltcha, type AltchaChallenge } from './solve-altcha.ts';

type State = 'idle' | 'verifying' | 'verified' | 'expired' | 'failed';

const STATUS_TEXT: Record<State, string> = {
  idle: '',
  verifying: 'Verifying…',
  verified: 'Verified.',
  expired: 'Verification expired. Please check the box again.',
  failed: 'Verification failed. Please check the box again.',
};

/**
 * A checkbox that proves the visitor is not a robot by a few seconds of proof-of-work in the
 * browser (self-hosted ALTCHA protocol): no third party, no tracking, operable by keyboard.
 */
export function AltchaCaptcha({
  onChange,
  error,
  challengeUrl,
}: Omit<CaptchaProps, 'resetSignal'> & { challengeUrl: string }) {
  const [state, setState] = useState<State>('idle');
  const id = useId();
  const abort = useRef<AbortController | null>(null);
  const expiryTimer = useRef<number | undefined>(undefined);
  const onChangeRef = useRef(onChange);
  useEffect(() => {
    onChangeRef.current = onChange;
  });

  // Cleared on load (001 §4); a reset remounts this component (see captcha.tsx), which lands here too.
  useEffect(() => {
    onChangeRef.current(null);
    return () => {
      abort.current?.abort();
      window.clearTimeout(expiryTimer.current);
    };
  }, []);

  async function verify() {
    abort.current?.abort();
    const controller = new AbortController();
    abort.current = controller;
    setState('verifying');
    try {
      const { data: challenge } = await request<AltchaChallenge>(challengeUrl, {
        signal: controller.signal,
      });
      const receivedAt = performance.now();
      const token = await solveAltcha(challenge, controller.signal);
      if (!token) throw new Error('no solution');
      setState('verified');
      onChangeRef.current(token);
      const delay = altchaExpiryDelay(challenge, receivedAt, performance.now(), 5000);
      if (delay !== null) {
        expiryTimer.current = window.setTimeout(() => {
          setState('expired');
          onChangeRef.current(null);
        }, delay);
      }
    } catch (cause) {
      if (controller.signal.aborted) return;
      console.warn('captcha verification failed', cause);
      setState('failed');
      onChangeRef.current(null);
    }
  }

  const checked = state === 'verified';
  return (
    <div className={`captcha${error ? ' captcha--invalid' : ''}`}>
      <div className="captcha__box">
        <input
          id={id}
          type="checkbox"
          className="captcha__checkbox"
          checked={checked}
          disabled={state === 'verifying'}
          aria-describedby={`${id}-status${error ? ` ${id}-error` : ''}`}
          aria-invalid={error ? true : undefined}
          onChange={() => {
            if (!checked) void verify();
          }}
        />
        <label htmlFor={id} className="captcha__label">
          I’m not a robot
        </label>
        <span className="captcha__brand" aria-hidden="true">
          proof of work
        </span>
      </div>
      <p id={`${id}-status`} className="captcha__status" role="status" aria-live="polite">
        {STATUS_TEXT[state]}
      </p>
      {error ? (
        <p id={`${id}-error`} className="field__error">
          {error}
        </p>
      ) : null}
    </div>
  );
}
