/** The AutoCheck integration form (000 §5) and its part of `PUT /api/users/current`. */
import { z } from 'zod';
import { isBlank, requiredMessage } from '../validation/text.ts';
import { NOT_BLANK_PATTERN, notBlank } from './json-schema.ts';

export const AUTOCHECK_LABELS = {
  autoCheckId: 'AutoCheck ID',
  autoCheckPasswd: 'AutoCheck password',
  autoCheckEnabled: 'the AutoCheck integration terms',
} as const;

export const AUTOCHECK_MESSAGES = {
  idRequired: requiredMessage(AUTOCHECK_LABELS.autoCheckId),
  passwordRequired: requiredMessage(AUTOCHECK_LABELS.autoCheckPasswd),
  agree: `You must agree to ${AUTOCHECK_LABELS.autoCheckEnabled}.`,
} as const;

export const ZAutoCheckFieldsSchema = z.object({
  autoCheckId: z.string().trim().max(100).default(''),
  autoCheckPasswd: z.string().max(200).default(''),
  /** The agree box. */
  autoCheckEnabled: z.boolean().default(false),
  autoCheckAutoPurchase: z.boolean().default(false),
});
export type TAutoCheckFields = z.infer<typeof ZAutoCheckFieldsSchema>;

/** The same fields in a request, without defaults: absent keys change nothing. */
export const ZAutoCheckRequestFieldsSchema = z.object({
  autoCheckId: z.string().trim().max(100).optional(),
  autoCheckPasswd: z.string().max(200).optional(),
  autoCheckEnabled: z.boolean().optional(),
  autoCheckAutoPurchase: z.boolean().optional(),
});

interface IAutoCheckValues {
  autoCheckId?: string;
  autoCheckPasswd?: string;
  autoCheckEnabled?: boolean;
  autoCheckAutoPurchase?: boolean;
}

/** 000 §5: the rules apply once any of ID, password, agree or auto-purchase is set. */
export function autoCheckInUse(values: IAutoCheckValues): boolean {
  return (
    !isBlank(values.autoCheckId) ||
    !isBlank(values.autoCheckPasswd) ||
    values.autoCheckEnabled === true ||
    values.autoCheckAutoPurchase === true
  );
}

/**
 * The form: ID and password required, agree true. `passwordStored` is true when the server
 * already holds a password (R7: it is never sent back), so the field may stay blank.
 */
export function checkAutoCheckForm(
  values: IAutoCheckValues,
  ctx: z.RefinementCtx,
  passwordStored = false,
): void {
  if (!autoCheckInUse(values)) return;
  if (isBlank(values.autoCheckId)) {
    ctx.addIssue({ code: 'custom', message: AUTOCHECK_MESSAGES.idRequired, path: ['autoCheckId'] });
  }
  if (isBlank(values.autoCheckPasswd) && !passwordStored) {
    ctx.addIssue({
      code: 'custom',
      message: AUTOCHECK_MESSAGES.passwordRequired,
      path: ['autoCheckPasswd'],
    });
  }
  if (values.autoCheckEnabled !== true) {
    ctx.addIssue({ code: 'custom', message: AUTOCHECK_MESSAGES.agree, path: ['autoCheckEnabled'] });
  }
}

/**
 * `checkAutoCheckRequest` in JSON Schema words (docs/decisions/053): once the ID or the password is
 * not blank, or agree or auto-purchase is on, the ID is required and agree must be on.
 */
export const AUTOCHECK_REQUEST_JSON_SCHEMA = {
  if: {
    anyOf: [
      notBlank(['autoCheckId']),
      notBlank(['autoCheckPasswd']),
      { required: ['autoCheckEnabled'], properties: { autoCheckEnabled: { const: true } } },
      {
        required: ['autoCheckAutoPurchase'],
        properties: { autoCheckAutoPurchase: { const: true } },
      },
    ],
  },
  then: {
    required: ['autoCheckId', 'autoCheckEnabled'],
    properties: {
      autoCheckId: { pattern: NOT_BLANK_PATTERN },
      autoCheckEnabled: { const: true },
    },
  },
};

/** The request: as the form, but the server decides about a blank password (stored or not). */
export function checkAutoCheckRequest(values: IAutoCheckValues, ctx: z.RefinementCtx): void {
  checkAutoCheckForm(values, ctx, true);
}

export const ZAutoCheckFormFieldsSchema = ZAutoCheckFieldsSchema.extend({
  /** From the current user (R7): whether a password is stored. Not sent back. */
  autoCheckPasswdSet: z.boolean().default(false),
});

export const ZAutoCheckFormSchema = ZAutoCheckFormFieldsSchema.superRefine((values, ctx) =>
  checkAutoCheckForm(values, ctx, values.autoCheckPasswdSet),
);
export type TAutoCheckForm = z.infer<typeof ZAutoCheckFormSchema>;

/** 000 §7: the debug note sent to /api/log when auto-purchase changes. */
export function autoPurchaseLogMessage(enabled: boolean): string {
  return `AutoCheck auto-purchase ${enabled ? 'enabled' : 'disabled'}`;
}
