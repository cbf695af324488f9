import { useEffect, useRef } from 'react';
import type { CaptchaProps } from './captcha.tsx';

interface Grecaptcha {
  render(element: HTMLElement, options: Record<string, unknown>): number;
  reset(widgetId?: number): void;
}

declare global {
  interface Window {
    grecaptcha?: Grecaptcha;
    dealerpassRecaptchaLoaded?: () => void;
  }
}

let loading: Promise<Grecaptcha> | null = null;

/** Loads Google's script once, only on pages that show a captcha, only when reCAPTCHA is configured. */
function loadRecaptcha(): Promise<Grecaptcha> {
  loading ??= new Promise((resolve, reject) => {
    window.dealerpassRecaptchaLoaded = () =>
      window.grecaptcha ? resolve(window.grecaptcha) : reject(new Error('no grecaptcha'));
    const script = document.createElement('script');
    script.src =
      'https://www.google.com/recaptcha/api.js?onload=dealerpassRecaptchaLoaded&render=explicit';
    script.async = true;
    script.onerror = () => {
      loading = null;
      reject(new Error('reCAPTCHA failed to load'));
    };
    document.head.append(script);
  });
  return loading;
}

/** Google reCAPTCHA v2, used instead of ALTCHA when its keys are configured (DECISIONS R8). */
export default function RecaptchaCaptcha({
  onChange,
  resetSignal,
  error,
  siteKey,
}: CaptchaProps & { siteKey: string }) {
  const container = useRef<HTMLDivElement>(null);
  const widget = useRef<{ api: Grecaptcha; id: number } | null>(null);
  const onChangeRef = useRef(onChange);
  useEffect(() => {
    onChangeRef.current = onChange;
  });

  useEffect(() => {
    let cancelled = false;
    loadRecaptcha()
      .then((api) => {
        if (cancelled || !container.current || widget.current) return;
        const id = api.render(container.current, {
          sitekey: siteKey,
          callback: (token: string) => onChangeRef.current(token),
          'expired-callback': () => onChangeRef.current(null),
          'error-callback': () => onChangeRef.current(null),
        });
        widget.current = { api, id };
      })
      .catch((cause: unknown) => console.warn(cause));
    return () => {
      cancelled = true;
    };
  }, [siteKey]);

  useEffect(() => {
    widget.current?.api.reset(widget.current.id);
    onChangeRef.current(null);
  }, [resetSignal]);

  return (
    <div className={`captcha${error ? ' captcha--invalid' : ''}`}>
      <div ref={container} />
      {error ? <p className="field__error">{error}</p> : null}
    </div>
  );
}
