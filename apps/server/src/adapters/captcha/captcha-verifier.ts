/** What the browser needs to show the captcha; safe to publish in the page. */
export type CaptchaPublicConfig =
  { kind: 'altcha'; challengeUrl: string } | { kind: 'recaptcha'; siteKey: string };

export type CaptchaVerdict =
  | {
      ok: true;
      /** Identifies this solved captcha so it can be accepted once only. */
      replayKey: string;
      /** After this instant the captcha is refused anyway, so its replay record can go. */
      expiresAt: Date;
    }
  | { ok: false; reason: string };

/** The captcha port (DECISIONS R8): ALTCHA by default, Google reCAPTCHA when its keys are configured. */
export interface CaptchaVerifier {
  readonly kind: 'altcha' | 'recaptcha';
  publicConfig(): CaptchaPublicConfig;
  verify(token: string, remoteIp: string): Promise<CaptchaVerdict>;
}
