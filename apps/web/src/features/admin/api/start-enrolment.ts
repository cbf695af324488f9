import { request } from '../../../lib/api-client.ts';

/** A new authenticator secret, offered to this session only until a code from it is verified. */
export interface IEnrolment {
  /** Base32, for typing into an authenticator app by hand. */
  secret: string;
  /** otpauth://totp/… for apps that read a link or a QR code. */
  otpauthUri: string;
}

/** POST /api/admin/session/enrolment → `{ data: { secret, otpauthUri } }` (decision 026). */
export async function startEnrolment(): Promise<IEnrolment> {
  const response = await request<{ data: IEnrolment }>('/api/admin/session/enrolment', {
    method: 'POST',
    body: {},
  });
  return response.data.data;
}
