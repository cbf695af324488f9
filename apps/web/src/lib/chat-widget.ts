import { runtimeConfig } from './runtime-config.ts';

/**
 * The live chat (DECISIONS R8): a Chatwoot-compatible website widget, loaded only when the
 * server names one in the page's configuration; nothing is loaded or shown otherwise. The widget
 * script comes from the configured base URL (the page's CSP allows that origin only then).
 */
export interface IChatUser {
  /** A stable id for the chat contact: the DealerPass user id. */
  identifier: string;
  email: string;
  name: string;
  phone: string;
  dealership: string;
}

interface IChatwootApi {
  setUser(identifier: string, user: { email?: string; name?: string; phone_number?: string }): void;
  setCustomAttributes(attributes: Record<string, string>): void;
  reset(): void;
  toggleBubbleVisibility(state: 'show' | 'hide'): void;
}

declare global {
  interface Window {
    chatwootSDK?: { run(options: { websiteToken: string; baseUrl: string }): void };
    $chatwoot?: IChatwootApi;
    chatwootSettings?: Record<string, unknown>;
  }
}

let loading: Promise<void> | null = null;
let pendingUser: IChatUser | null = null;

function loadWidget(baseUrl: string, websiteToken: string): Promise<void> {
  loading ??= new Promise<void>((resolve, reject) => {
    window.chatwootSettings = { hideMessageBubble: false, position: 'right', locale: 'en' };
    window.addEventListener(
      'chatwoot:ready',
      () => {
        if (pendingUser) applyUser(pendingUser);
        resolve();
      },
      { once: true },
    );
    const script = document.createElement('script');
    script.src = `${baseUrl.replace(/\/$/, '')}/packs/js/sdk.js`;
    script.async = true;
    const nonce = document.querySelector<HTMLScriptElement>('script[nonce]')?.nonce;
    if (nonce) script.nonce = nonce;
    script.addEventListener('load', () =>
      window.chatwootSDK?.run({ websiteToken, baseUrl: baseUrl.replace(/\/$/, '') }),
    );
    script.addEventListener('error', () => {
      loading = null;
      script.remove();
      reject(new Error('the chat widget could not be loaded'));
    });
    document.body.append(script);
  });
  return loading;
}

function applyUser(user: IChatUser): void {
  window.$chatwoot?.setUser(user.identifier, {
    email: user.email,
    name: user.name,
    phone_number: user.phone,
  });
  window.$chatwoot?.setCustomAttributes({ dealership: user.dealership });
}

/** Whether a chat widget is configured at all. */
export function chatConfigured(): boolean {
  return Boolean(runtimeConfig().chat);
}

/**
 * Shows the widget (loading it once), prefilled with the user when one is given (000 §1: the
 * dealership, e-mail, full name and mobile number). Does nothing when no chat is configured.
 */
export function showChat(user: IChatUser | null = null): void {
  const chat = runtimeConfig().chat;
  if (!chat) return;
  pendingUser = user;
  loadWidget(chat.baseUrl, chat.websiteToken).then(
    () => {
      window.$chatwoot?.toggleBubbleVisibility('show');
      if (user) applyUser(user);
    },
    (error: unknown) => console.warn(error),
  );
}

/** Hides the widget on pages that do not offer chat (it stays loaded). */
export function hideChat(): void {
  if (!loading) return;
  window.$chatwoot?.toggleBubbleVisibility('hide');
}
