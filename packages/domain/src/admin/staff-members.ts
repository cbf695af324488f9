import { z } from 'zod';
import { errorMessage } from '../messages.ts';
import { LOWER_CASED_TO_ASCII, patternBody, trimmedPattern } from '../schemas/json-schema.ts';
import { PASSWORD_JSON_SCHEMA, isValidPassword } from '../validation/password.ts';
import { ZRequestKeySchema, ZStaffReasonSchema } from './account-actions.ts';
import { STAFF_ROLES } from './roles.ts';

/**
 * The staff e-mail as sent: zod's e-mail pattern once trimmed and lower-cased (a Kelvin sign
 * becomes a k), at most 254 characters, for the API description (docs/decisions/053).
 */
const STAFF_EMAIL_JSON_SCHEMA = {
  allOf: [
    {
      pattern: trimmedPattern(
        patternBody(z.regexes.email).replaceAll('A-Za-z', `A-Za-z${kelvinSign()}`),
      ),
    },
    { pattern: '^\\s*\\S{1,254}\\s*$' },
  ],
};

function kelvinSign(): string {
  return Object.keys(LOWER_CASED_TO_ASCII).join('');
}

/** An admin adds a staff member (R12). The password is for the embedded provider only. */
export const ZCreateStaffMemberRequestSchema = z.object({
  email: z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.email({ error: errorMessage('EMAIL_NOT_VALID') }).max(254))
    .meta(STAFF_EMAIL_JSON_SCHEMA),
  name: z.string().trim().min(1, { error: 'Name is required.' }).max(120),
  role: z.enum(STAFF_ROLES, { error: 'Choose a role.' }),
  password: z
    .string()
    .refine(isValidPassword, { error: errorMessage('PASSWORD_NOT_VALID') })
    .meta(PASSWORD_JSON_SCHEMA)
    .optional(),
  requestKey: ZRequestKeySchema,
});
export type TCreateStaffMemberRequest = z.infer<typeof ZCreateStaffMemberRequestSchema>;

export const ZResetSecondFactorRequestSchema = z.object({
  reason: ZStaffReasonSchema,
  requestKey: ZRequestKeySchema,
});
export type TResetSecondFactorRequest = z.infer<typeof ZResetSecondFactorRequestSchema>;

/**
 * The Staff page's own texts (R12): an e-mail already taken, and an admin's change of a member
 * refused (the console keeps an admin who can sign in, and an admin does not lock themself out).
 */
export const STAFF_MEMBER_MESSAGES = {
  emailInUse: 'A staff member with this e-mail already exists.',
  disableSelf: 'You cannot disable your own staff account.',
  lastAdmin:
    'The console needs at least one admin who can sign in. Make another member an admin first.',
  alreadyDisabled: 'This member is already disabled.',
  alreadyEnabled: 'This member is not disabled.',
  sameRole: 'This member already has that role.',
  firstPasswordRequired: 'A first password is required.',
} as const;

/**
 * With the embedded provider (R12) the admin sets the member's first password: the same request
 * with the password required, so the served description says so (docs/decisions/053).
 */
export const ZCreateEmbeddedStaffMemberRequestSchema = ZCreateStaffMemberRequestSchema.extend({
  password: z
    .string({
      error: (issue) =>
        issue.input === undefined ? STAFF_MEMBER_MESSAGES.firstPasswordRequired : undefined,
    })
    .refine(isValidPassword, { error: errorMessage('PASSWORD_NOT_VALID') })
    .meta(PASSWORD_JSON_SCHEMA),
});

/** An admin disables a member (their sessions end at once, they cannot sign in) or enables one. */
export const ZSetStaffDisabledRequestSchema = z.strictObject({
  disabled: z.boolean(),
  reason: ZStaffReasonSchema,
  requestKey: ZRequestKeySchema,
});
export type TSetStaffDisabledRequest = z.infer<typeof ZSetStaffDisabledRequestSchema>;

/** An admin changes a member's role (R12: support, billing or admin). */
export const ZChangeStaffRoleRequestSchema = z.strictObject({
  role: z.enum(STAFF_ROLES, { error: 'Choose a role.' }),
  reason: ZStaffReasonSchema,
  requestKey: ZRequestKeySchema,
});
export type TChangeStaffRoleRequest = z.infer<typeof ZChangeStaffRoleRequestSchema>;

/** What the console knows of its own session. */
export const ZStaffSessionSchema = z.object({
  email: z.string(),
  name: z.string(),
  role: z.enum(STAFF_ROLES),
  secondFactor: z.boolean(),
  enrolled: z.boolean(),
});
export type TStaffSession = z.infer<typeof ZStaffSessionSchema>;

export const ZStaffMemberSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  role: z.enum(STAFF_ROLES),
  enrolled: z.boolean(),
  disabled: z.boolean(),
  createdAt: z.string(),
});
export type TStaffMember = z.infer<typeof ZStaffMemberSchema>;
