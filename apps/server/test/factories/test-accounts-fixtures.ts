import { DEMO_PASSWORD, type IDemoAccount } from '../../src/services/demo/demo-accounts.ts';
import type { DemoStaffMember } from '../../src/services/demo/demo-staff.ts';
import {
  parseTestAccounts,
  type TTestAccountsFile,
} from '../../src/services/demo/read-test-accounts.ts';

/**
 * A small TEST_ACCOUNTS_FILE of the API tests' own (docs/decisions/065; the browser tests' is
 * e2e/fixtures/accounts.ts): copies of three demo states, one with a status detail, and two staff
 * members, one yet to enrol an authenticator.
 */
export const TEST_ACCOUNTS_CONTENT: { accounts: IDemoAccount[]; staff: DemoStaffMember[] } = {
  accounts: [
    {
      key: 'active',
      label: 'Test only: active',
      method: 'email',
      signIn: 'e2e-api-active@example.com',
      password: DEMO_PASSWORD,
      state: 'active',
    },
    {
      key: 'inactive',
      label: 'Test only: inactive',
      method: 'email',
      signIn: 'e2e-api-inactive@example.com',
      password: DEMO_PASSWORD,
      state: 'inactive',
    },
    {
      key: 'complimentary',
      label: 'Test only: complimentary',
      method: 'email',
      signIn: 'E2E-API-Complimentary@Example.com',
      password: DEMO_PASSWORD,
      state: 'active',
      details: 'complimentary',
    },
  ],
  staff: [
    {
      email: 'e2e-api-enrol.staff@example.com',
      name: 'Ena Rol',
      role: 'support',
      totpSecret: null,
    },
    {
      email: 'e2e-api-billing.staff@example.com',
      name: 'Bill Ing',
      role: 'billing',
      totpSecret: 'DPAPITESTBILLINGTOTPSECRET234567',
    },
  ],
};

/** The content above, checked as the server checks the file. */
export function testAccounts(): TTestAccountsFile {
  return parseTestAccounts(TEST_ACCOUNTS_CONTENT, 'test-accounts-fixtures.ts');
}
