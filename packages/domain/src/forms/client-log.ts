/**
 * The bounds of `POST /api/log` (001 §7, 000 §7), which the web app applies before it sends and
 * the schema (`schemas/client-log.ts`) enforces. No zod here: every account page reports through
 * it, and the report is not worth the schema library in the first load (docs/decisions/027).
 */
export const CLIENT_LOG_LIMITS = {
  message: 2000,
  description: 2000,
  err: 2000,
  url: 2048,
  event: 200,
  optionKeys: 20,
  optionKeyLength: 100,
  optionValue: 2000,
} as const;

/** 001 §7: event names carry one of these suffixes. */
export const CLIENT_LOG_EVENT_SUFFIXES = ['mounted', 'updated', 'caught error', 'effect'] as const;
