/**
 * The contact form and `POST /api/v2/contactUs` (001 §3, §5, §7). One schema for the browser
 * and the server; the server re-validates and verifies the captcha value.
 */
import { z } from 'zod';
import {
  CONTACT_COMMENTS_MAX_LENGTH,
  CONTACT_PHONE_COUNTRIES,
  CONTACT_QUERY_TYPES,
  CONTACT_SOURCE,
} from '../forms/contact.ts';
import { EMAIL_MAX_LENGTH, EMAIL_PATTERN } from '../validation/email.ts';

export const CONTACT_NAME_MAX_LENGTH = 200;

export const CONTACT_MESSAGES = {
  fullName: 'name is required.',
  fullNameTooLong: `name must be at most ${CONTACT_NAME_MAX_LENGTH} characters.`,
  email: 'Invalid email address.',
  phoneCountry: 'phone country is required.',
  phoneNumber: 'phone number must be a valid 10 digit number.',
  queryType: 'Please select a reason for contacting us.',
  auctionAccessNumber: 'auction access number must be up to 9 digits.',
  comments: 'comments are required.',
  commentsTooLong: `comments must be at most ${CONTACT_COMMENTS_MAX_LENGTH} characters.`,
  recaptcha: 'reCAPTCHA required to prove you’re not a robot.',
  source: `source must be ${CONTACT_SOURCE}.`,
} as const;

const M = CONTACT_MESSAGES;

export const ZContactUsRequestSchema = z.object({
  fullName: z
    .string({ error: M.fullName })
    .trim()
    .min(1, { error: M.fullName })
    .max(CONTACT_NAME_MAX_LENGTH, { error: M.fullNameTooLong }),
  email: z
    .string({ error: M.email })
    .trim()
    .max(EMAIL_MAX_LENGTH, { error: M.email })
    .regex(EMAIL_PATTERN, { error: M.email }),
  phoneCountry: z.enum(CONTACT_PHONE_COUNTRIES, { error: M.phoneCountry }),
  // Exactly ten digits as typed (001 §5): no separators are stripped.
  phoneNumber: z
    .string({ error: M.phoneNumber })
    .trim()
    .regex(/^\d{10}$/, { error: M.phoneNumber }),
  queryType: z.enum(CONTACT_QUERY_TYPES, { error: M.queryType }),
  auctionAccessNumber: z
    .string({ error: M.auctionAccessNumber })
    .trim()
    .regex(/^\d{0,9}$/, { error: M.auctionAccessNumber })
    .optional(),
  comments: z
    .string({ error: M.comments })
    .trim()
    .min(1, { error: M.comments })
    .max(CONTACT_COMMENTS_MAX_LENGTH, { error: M.commentsTooLong }),
  recaptcha: z.string({ error: M.recaptcha }).trim().min(1, { error: M.recaptcha }),
  source: z.literal(CONTACT_SOURCE, { error: M.source }),
});

export type TContactUsRequest = z.infer<typeof ZContactUsRequestSchema>;
