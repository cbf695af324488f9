/**
 * One intent, one key (docs/decisions/031): what a request key stands for, the same on both
 * sides. The web app keeps a key while what it would send is the same content; the server records
 * a hash of the same content with the key and refuses the key with any other.
 */

/** The body fields that carry a request key: a route whose body has one is keyed. */
export const REQUEST_KEY_FIELDS = ['requestKey', 'idempotencyKey'] as const;

/**
 * JSON with every object's keys in code-point order, at every depth, so two values that mean the
 * same thing are the same text whatever order their fields were written in. Like JSON.stringify
 * otherwise: undefined fields are left out, a Date is its ISO string.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, field: unknown) => {
    if (field === null || typeof field !== 'object' || Array.isArray(field)) return field;
    const entries = Object.entries(field as Record<string, unknown>).sort(([a], [b]) =>
      a < b ? -1 : a > b ? 1 : 0,
    );
    return Object.fromEntries(entries);
  });
}

/** What a keyed body asks for: its canonical JSON without its key. */
export function requestContent(body: object): string {
  const content: Record<string, unknown> = { ...(body as Record<string, unknown>) };
  for (const field of REQUEST_KEY_FIELDS) delete content[field];
  return canonicalJson(content);
}
