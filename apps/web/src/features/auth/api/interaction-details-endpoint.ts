/** GET /oidc/interaction/:uid/details: the sign-in page's first call, also sent early by main.tsx. */
export function interactionDetailsEndpoint(uid: string): string {
  return `/oidc/interaction/${encodeURIComponent(uid)}/details`;
}
