/**
 * `POST /api/log` (001 §7, 000 §7): either a client error report `{ err?, message, url }`
 * (sent on 403s) or an event `{ event, description, url, ...options }`. One permissive object,
 * bounded so the endpoint cannot be used to store arbitrary amounts of data.
 */
import { z } from 'zod';
import { CLIENT_LOG_LIMITS } from '../forms/client-log.ts';

const L = CLIENT_LOG_LIMITS;

const KNOWN_KEYS = new Set(['err', 'message', 'url', 'event', 'description']);

const ZOptionValue = z.union([z.string().max(L.optionValue), z.number(), z.boolean(), z.null()]);

export const ZClientLogRequestSchema = z
  .object({
    err: z.union([z.string().max(L.err), z.number(), z.boolean(), z.null()]).optional(),
    message: z.string().max(L.message).optional(),
    event: z.string().trim().min(1).max(L.event).optional(),
    description: z.string().max(L.description).optional(),
    url: z.string().max(L.url),
  })
  .catchall(ZOptionValue)
  .superRefine((value, ctx) => {
    if (value.message === undefined && value.event === undefined) {
      ctx.addIssue({ code: 'custom', message: 'message or event is required.', path: ['message'] });
    }
    const extras = Object.keys(value).filter((key) => !KNOWN_KEYS.has(key));
    if (extras.length > L.optionKeys) {
      ctx.addIssue({ code: 'custom', message: `at most ${L.optionKeys} options are allowed.` });
    }
    for (const key of extras) {
      if (key.length > L.optionKeyLength) {
        ctx.addIssue({ code: 'custom', message: 'option name is too long.', path: [key] });
      }
    }
  });

export type TClientLogRequest = z.infer<typeof ZClientLogRequestSchema>;
