/** What the server tells the page about itself, in meta tags of index.html (001 §7). */
export interface RuntimeConfig {
  companyName: string;
  /** The e-mail domain refused at sign-up (R1). */
  companyEmailDomain: string;
  supportPhone: string;
  launchAppUrl: string;
  captcha: { kind: 'altcha'; challengeUrl: string } | { kind: 'recaptcha'; siteKey: string };
  /** Embedded sandboxes in use (DECISIONS R8), announced by a ribbon. */
  sandboxes: string[];
  mailbox: boolean;
  /** Where business dates are counted (DECISIONS R4), e.g. the order summary's renewal date. */
  businessTimeZone: string;
  /** The live chat widget (DECISIONS R8), only when one is configured. */
  chat?: { kind: 'chatwoot'; baseUrl: string; websiteToken: string } | null;
}

const DEFAULTS: RuntimeConfig = {
  companyName: 'DealerPass',
  companyEmailDomain: 'dealerpass.example',
  supportPhone: '1-800-555-0199',
  launchAppUrl: '/',
  captcha: { kind: 'altcha', challengeUrl: '/api/captcha/challenge' },
  sandboxes: [],
  mailbox: false,
  businessTimeZone: 'America/New_York',
};

export function readMeta(name: string): string | null {
  return document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content ?? null;
}

let cached: RuntimeConfig | null = null;

export function runtimeConfig(): RuntimeConfig {
  if (cached) return cached;
  const raw = readMeta('dp-config');
  try {
    cached = raw ? { ...DEFAULTS, ...(JSON.parse(raw) as Partial<RuntimeConfig>) } : DEFAULTS;
  } catch {
    cached = DEFAULTS;
  }
  return cached;
}
