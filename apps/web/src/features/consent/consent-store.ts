import { useSyncExternalStore } from 'react';

/**
 * The visitor's cookie choice, kept in local storage. Essential storage (CSRF cookie, session,
 * trace ids) needs no consent; anything else (live chat, analytics vendors) must call
 * `hasConsent` first and load only after the visitor agreed.
 */
export type ConsentCategory = 'functional' | 'analytics';

export interface ConsentChoice {
  functional: boolean;
  analytics: boolean;
  decidedAt: string;
}

export const CONSENT_KEY = 'dp.cookieConsent';
const listeners = new Set<() => void>();
let cachedRaw: string | null | undefined;
let cachedChoice: ConsentChoice | null = null;

function read(): ConsentChoice | null {
  let raw: string | null = null;
  try {
    raw = window.localStorage.getItem(CONSENT_KEY);
  } catch {
    return null;
  }
  if (raw === cachedRaw) return cachedChoice;
  cachedRaw = raw;
  try {
    const parsed = raw ? (JSON.parse(raw) as Partial<ConsentChoice>) : null;
    cachedChoice =
      parsed && typeof parsed.functional === 'boolean' && typeof parsed.analytics === 'boolean'
        ? {
            functional: parsed.functional,
            analytics: parsed.analytics,
            decidedAt: String(parsed.decidedAt ?? ''),
          }
        : null;
  } catch {
    cachedChoice = null;
  }
  return cachedChoice;
}

export function saveConsent(choice: Omit<ConsentChoice, 'decidedAt'>): void {
  const value: ConsentChoice = { ...choice, decidedAt: new Date().toISOString() };
  try {
    window.localStorage.setItem(CONSENT_KEY, JSON.stringify(value));
  } catch {
    // Without storage the choice lasts for this page only.
    cachedRaw = JSON.stringify(value);
    cachedChoice = value;
  }
  listeners.forEach((listener) => listener());
}

export function hasConsent(category: ConsentCategory): boolean {
  return read()?.[category] === true;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === CONSENT_KEY) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

export function useConsent(): ConsentChoice | null {
  return useSyncExternalStore(subscribe, read, () => null);
}
