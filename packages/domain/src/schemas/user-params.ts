/** Path parameters of `GET /api/users/userIdTaken/{email}` and `alternateEmailTaken/{email}` (001 §7). */
import { z } from 'zod';
import { errorMessage } from '../messages.ts';
import { EMAIL_MAX_LENGTH, EMAIL_PATTERN } from '../validation/email.ts';

export const ZEmailParamSchema = z.object({
  email: z
    .string()
    .trim()
    .max(EMAIL_MAX_LENGTH, { error: errorMessage('EMAIL_NOT_VALID') })
    .regex(EMAIL_PATTERN, { error: errorMessage('EMAIL_NOT_VALID') }),
});
export type TEmailParam = z.infer<typeof ZEmailParamSchema>;

/** `data.data` of the "taken" calls: true means the address is already used. */
export interface IEmailTakenResponse {
  data: boolean;
}
