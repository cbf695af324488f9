import { z } from 'zod';

/** RFC 6238 as the console uses it: 6 digits, 30-second steps, SHA-1 (what every authenticator app reads). */
export const TOTP_DIGITS = 6;
export const TOTP_STEP_SECONDS = 30;

/** The code a staff member types: six digits, spaces tolerated (apps show "123 456"). */
export const ZTotpCodeRequestSchema = z.object({
  code: z
    .string()
    .transform((value) => value.replace(/\s+/g, ''))
    .pipe(z.string().regex(/^\d{6}$/, 'Enter the 6-digit code from your authenticator app.'))
    // The same rule as sent, spaces anywhere, for the API description (docs/decisions/053).
    .meta({ pattern: '^\\s*(?:[0-9]\\s*){6}$' }),
});
export type TTotpCodeRequest = z.infer<typeof ZTotpCodeRequestSchema>;
