import { ZSignInCaptchaSchema } from './sign-in.ts';
/**
 * DealerPass ID requests (001 §5, §8; DECISIONS R1, R6; docs/decisions/009): set a password from
 * the verification link, reset a forgotten one, and create or link a DealerPass ID from
 * `/account/karid/connect`. One schema for the page and the server.
 */
import { z } from 'zod';
import { errorMessage } from '../messages.ts';
import {
  PASSWORD_JSON_SCHEMA,
  PASSWORD_MAX_LENGTH,
  isValidPassword,
} from '../validation/password.ts';
import { requiredMessage } from '../validation/text.ts';
import { emailField, recaptchaField } from './fields.ts';

export const IDENTITY_MESSAGES = {
  password: errorMessage('PASSWORD_NOT_VALID'),
  confirmPassword: errorMessage('CONFIRM_PASSWORD_INVALID'),
  token: errorMessage('RESET_INVALID'),
  emailRequired: requiredMessage('Email'),
  email: errorMessage('EMAIL_NOT_VALID'),
  passwordRequired: requiredMessage('Password'),
  mode: 'Choose whether to create a new DealerPass ID or link an existing one.',
} as const;

const M = IDENTITY_MESSAGES;

/** The random part of a set-password or reset link: 32 bytes, base64url. */
export const IDENTITY_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** A new password: the complexity rule of 001 §5. Not trimmed: spaces are refused, not removed. */
const newPasswordField = z
  .string({ error: M.password })
  .refine(isValidPassword, { error: M.password })
  .meta(PASSWORD_JSON_SCHEMA);

/**
 * The confirmation: the rule of a new password, and the same text as `password` (said in words:
 * JSON Schema cannot compare two fields).
 */
const confirmPasswordField = z
  .string({ error: M.confirmPassword })
  .meta({ ...PASSWORD_JSON_SCHEMA, description: 'The same text as `password`.' });

/** A password being checked against a stored one: any non-empty text, never judged by the rule. */
const currentPasswordField = z
  .string({ error: M.passwordRequired })
  .min(1, { error: M.passwordRequired })
  .max(PASSWORD_MAX_LENGTH, { error: errorMessage('INVALID_CREDENTIALS') });

const identityEmailField = emailField({ required: M.emailRequired, invalid: M.email });

/** The confirmation must meet the rule too and equal the password (001 §8). */
function checkConfirmation(
  values: { password: string; confirmPassword: string },
  ctx: z.RefinementCtx,
): void {
  if (!isValidPassword(values.confirmPassword) || values.confirmPassword !== values.password) {
    ctx.addIssue({ code: 'custom', message: M.confirmPassword, path: ['confirmPassword'] });
  }
}

/** The two fields of the set-password and reset pages, unrefined for `.pick()`. */
export const ZNewPasswordFieldsSchema = z.object({
  password: newPasswordField,
  confirmPassword: confirmPasswordField,
});

export const ZNewPasswordFormSchema = ZNewPasswordFieldsSchema.superRefine(checkConfirmation);
export type TNewPasswordForm = z.infer<typeof ZNewPasswordFormSchema>;

/**
 * `POST /api/identity/password/set` (verification link) and `/reset` (forgot-password link):
 * the token from the link plus the new password twice.
 */
export const ZSetPasswordRequestSchema = ZNewPasswordFieldsSchema.extend({
  token: z.string({ error: M.token }).trim().regex(IDENTITY_TOKEN_PATTERN, { error: M.token }),
}).superRefine(checkConfirmation);
export type TSetPasswordRequest = z.infer<typeof ZSetPasswordRequestSchema>;

export const ZResetPasswordRequestSchema = ZSetPasswordRequestSchema;
export type TResetPasswordRequest = TSetPasswordRequest;

/** `POST /api/identity/password/forgot`: the DealerPass ID's e-mail and a captcha. */
export const ZForgotPasswordRequestSchema = z.object({
  email: identityEmailField,
  recaptcha: recaptchaField,
});
export type TForgotPasswordRequest = z.infer<typeof ZForgotPasswordRequestSchema>;

/**
 * `POST /api/users/current/karid` (`/account/karid/connect`, DECISIONS R6): create a new
 * DealerPass ID with a password that meets the rule, or link an existing one by signing in to it.
 */
export const ZConnectKarIdCreateSchema = z
  .object({
    mode: z.literal('create'),
    email: identityEmailField,
    password: newPasswordField,
    confirmPassword: confirmPasswordField,
  })
  .superRefine(checkConfirmation);

export const ZConnectKarIdLinkSchema = z.object({
  mode: z.literal('link'),
  email: identityEmailField,
  password: currentPasswordField,
  recaptcha: ZSignInCaptchaSchema,
});

export const ZConnectKarIdRequestSchema = z.discriminatedUnion(
  'mode',
  [ZConnectKarIdCreateSchema, ZConnectKarIdLinkSchema],
  { error: M.mode },
);
export type TConnectKarIdRequest = z.infer<typeof ZConnectKarIdRequestSchema>;
