/**
 * Zod compiles object parsers with `new Function` when it may. Our CSP forbids eval (decision
 * 007), so the probe would only fail and Chromium would report a CSP violation (Lighthouse's
 * best-practices "issues" audit). Zod reads its global settings from `globalThis.__zod_globalConfig`
 * (it keeps an object already there): setting `jitless` here, in the entry, costs no zod code in
 * the first load and precedes every parse, which all happen in lazily loaded pages.
 */
const zodGlobal = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
zodGlobal.__zod_globalConfig = { ...zodGlobal.__zod_globalConfig, jitless: true };
export {};
