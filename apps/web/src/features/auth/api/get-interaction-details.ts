import { request } from '../../../lib/api-client.ts';

/** What the provider tells its sign-in page about a pending interaction (docs/decisions/009). */
export interface IInteractionDetails {
  uid: string;
  /** The provider's prompt (`login` for the sign-in page); shown to nobody, kept for completeness. */
  prompt: unknown;
  /** The e-mail the relying party passed as `login_hint`, if any. */
  loginHint: string | null;
  /** Whose sign-in this is: the dealers' or the operator console's (decision 026). */
  client: TInteractionClient;
}

export type TInteractionClient = 'dealer' | 'staff' | 'other';

export function interactionDetailsEndpoint(uid: string): string {
  return `/oidc/interaction/${encodeURIComponent(uid)}/details`;
}

/** The answer is not what the contract promises (e.g. an HTML page): treated as a failure. */
export class UnexpectedResponseError extends Error {
  override name = 'UnexpectedResponseError';
}

/** GET /oidc/interaction/:uid/details → `{ data: { uid, prompt, client, loginHint } }`. */
export async function getInteractionDetails(
  uid: string,
  signal?: AbortSignal,
): Promise<IInteractionDetails> {
  const response = await request<{ data?: Partial<IInteractionDetails> }>(
    interactionDetailsEndpoint(uid),
    { signal },
  );
  const data =
    typeof response.data === 'object' && response.data !== null ? response.data.data : null;
  if (!data || typeof data.uid !== 'string') {
    throw new UnexpectedResponseError('The sign-in details could not be read.');
  }
  return {
    uid: data.uid,
    prompt: data.prompt ?? null,
    loginHint: typeof data.loginHint === 'string' ? data.loginHint : null,
    // Only the staff client gets the staff form; anything else is the dealers' sign-in.
    client: data.client === 'staff' ? 'staff' : data.client === 'other' ? 'other' : 'dealer',
  };
}
