/**
 * JSON with every object's keys in code-point order, at every depth, so two values that mean the
 * same thing are the same text whatever order their fields were written in (the request key's
 * body hash, docs/decisions/031). Like JSON.stringify otherwise: undefined fields are left out,
 * a Date is its ISO string.
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
