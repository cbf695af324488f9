import { TOTP_STEP_SECONDS } from '@dealerpass/domain/admin/totp';
import { totpCode } from '../src/lib/totp.ts';
import { DEMO_STAFF } from '../src/services/demo/demo-staff.ts';

/**
 * `npm run staff:code -- <support|billing|admin>`: the current authenticator code of a demo staff
 * member (README, "Operator console"), for trying the console without an authenticator app.
 * The demo secrets are public; a real member's secret never leaves the server.
 */
const role = process.argv[2];
const member = DEMO_STAFF.find((candidate) => candidate.role === role);
if (!member?.totpSecret) {
  console.error(`usage: npm run staff:code -- <${DEMO_STAFF.map((m) => m.role).join('|')}>`);
  process.exit(64);
}
const now = new Date();
const left = TOTP_STEP_SECONDS - (Math.floor(now.getTime() / 1000) % TOTP_STEP_SECONDS);
console.log(
  `${member.email}: ${totpCode(member.totpSecret, now)} (valid for ${left} more seconds)`,
);
