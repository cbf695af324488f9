import { z } from 'zod';

/**
 * The sign-in form of the embedded identity provider (DECISIONS R6): a DealerPass ID by e-mail and
 * password, or a migrated account's legacy username and password.
 */
export const SIGN_IN_MESSAGES = {
  email: 'Email is required.',
  username: 'Username is required.',
  password: 'Password is required.',
} as const;

/**
 * A solved captcha: needed only after repeated failures for the account (docs/decisions/016),
 * so it is optional here and the server says when it is missing.
 */
export const ZSignInCaptchaSchema = z.string().max(4096).optional();

export const ZSignInRequestSchema = z.discriminatedUnion('method', [
  z.object({
    method: z.literal('email'),
    email: z
      .string({ error: SIGN_IN_MESSAGES.email })
      .trim()
      .min(1, { error: SIGN_IN_MESSAGES.email })
      .max(254),
    password: z
      .string({ error: SIGN_IN_MESSAGES.password })
      .min(1, { error: SIGN_IN_MESSAGES.password })
      .max(128),
    recaptcha: ZSignInCaptchaSchema,
  }),
  z.object({
    method: z.literal('legacy'),
    username: z
      .string({ error: SIGN_IN_MESSAGES.username })
      .trim()
      .min(1, { error: SIGN_IN_MESSAGES.username })
      .max(100),
    password: z
      .string({ error: SIGN_IN_MESSAGES.password })
      .min(1, { error: SIGN_IN_MESSAGES.password })
      .max(128),
    recaptcha: ZSignInCaptchaSchema,
  }),
]);

export type TSignInRequest = z.infer<typeof ZSignInRequestSchema>;

/** The operator console's sign-in at the embedded provider (R12): staff have e-mail and password only. */
export const ZStaffSignInRequestSchema = z.object({
  email: z
    .string({ error: SIGN_IN_MESSAGES.email })
    .trim()
    .min(1, { error: SIGN_IN_MESSAGES.email })
    .max(254),
  password: z
    .string({ error: SIGN_IN_MESSAGES.password })
    .min(1, { error: SIGN_IN_MESSAGES.password })
    .max(128),
  recaptcha: ZSignInCaptchaSchema,
});

export type TStaffSignInRequest = z.infer<typeof ZStaffSignInRequestSchema>;
