import { join } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The import rules of eslint.config.js, each proven by a snippet that must fail lint (issue 15):
 * a rule that silently matched nothing would pass every file, so each case also lints a clean
 * snippet at the same place, which must pass.
 */
const root = join(import.meta.dirname, '..');
// Import cycles are not ESLint's: tooling/import-cycles.test.ts proves that check.
const eslint = new ESLint({ cwd: root });

/**
 * Lints the snippet as if it were a file at that place, without writing it: lint and tsc may run
 * beside these tests (tooling/test-all.ts) and must never see a snippet made to fail.
 */
async function rulesBroken(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(root, filePath) });
  return (result?.messages ?? []).map((message) => message.ruleId ?? message.message);
}

const CASES: { name: string; file: string; bad: string; good: string; rule: string }[] = [
  {
    name: 'domain never imports the apps (relative path)',
    file: 'packages/domain/src/lint-fixture.ts',
    bad: "import { loadConfig } from '../../../apps/server/src/config.ts';\nexport const x = loadConfig;\n",
    good: "import { ACCOUNT_ROUTES } from './account/account-routes.ts';\nexport const x = ACCOUNT_ROUTES;\n",
    rule: 'import/no-restricted-paths',
  },
  {
    name: 'domain has no I/O',
    file: 'packages/domain/src/lint-fixture.ts',
    bad: "import { readFileSync } from 'node:fs';\nexport const x = readFileSync;\n",
    good: "import { z } from 'zod';\nexport const x = z;\n",
    rule: 'no-restricted-imports',
  },
  {
    name: "the domain's forms/ imports no zod, not even through a schema module",
    file: 'packages/domain/src/forms/lint-fixture.ts',
    bad: "import { ZSignInRequestSchema } from '../schemas/sign-in.ts';\nexport const x = ZSignInRequestSchema;\n",
    good: "import { BILLING_LABELS } from '../schemas/messages.ts';\nexport const x = BILLING_LABELS;\n",
    rule: 'no-restricted-imports',
  },
  {
    name: "the domain's forms/ imports no zod itself",
    file: 'packages/domain/src/forms/lint-fixture.ts',
    bad: "import { z } from 'zod';\nexport const x = z;\n",
    good: "import { isBlank } from '../validation/text.ts';\nexport const x = isBlank;\n",
    rule: 'no-restricted-imports',
  },
  {
    name: 'the web app never imports the server, also from a feature folder',
    file: 'apps/web/src/features/contact/lint-fixture.ts',
    bad: "import { loadConfig } from '../../../../server/src/config.ts';\nexport const x = loadConfig;\n",
    good: "import { request } from '../../lib/api-client.ts';\nexport const x = request;\n",
    rule: 'import/no-restricted-paths',
  },
  {
    name: 'the server never imports the web app',
    file: 'apps/server/src/lint-fixture.ts',
    bad: "import { request } from '../../web/src/lib/api-client.ts';\nexport const x = request;\n",
    good: "import { loadConfig } from './config.ts';\nexport const x = loadConfig;\n",
    rule: 'import/no-restricted-paths',
  },
  {
    name: 'the product routes and services never import a sandbox',
    file: 'apps/server/src/services/users/lint-fixture.ts',
    bad: "import { SANDBOX_TEST_CARDS } from '../../sandboxes/payments/test-cards.ts';\nexport const x = SANDBOX_TEST_CARDS;\n",
    good: "import type { PaymentGateway } from '../../adapters/payments/payment-gateway.ts';\nexport type X = PaymentGateway;\n",
    rule: 'import/no-restricted-paths',
  },
  {
    name: 'a feature never imports another feature through a relative path',
    file: 'apps/web/src/features/integrations/components/lint-fixture.tsx',
    bad: "import { useCurrentUser } from '../../account/current-user.tsx';\nexport const x = useCurrentUser;\n",
    good: "import { request } from '../../../lib/api-client.ts';\nexport const x = request;\n",
    rule: 'import/no-restricted-paths',
  },
  {
    name: 'a feature never imports the app shell',
    file: 'apps/web/src/features/contact/lint-fixture.tsx',
    bad: "import { PageLoading } from '../../app/page-loading.tsx';\nexport const x = PageLoading;\n",
    good: "import { Button } from '../../components/ui/button.tsx';\nexport const x = Button;\n",
    rule: 'import/no-restricted-paths',
  },
  {
    name: 'shared code never imports a feature',
    file: 'apps/web/src/components/ui/lint-fixture.tsx',
    bad: "import { useCurrentUser } from '../../features/account/current-user.tsx';\nexport const x = useCurrentUser;\n",
    good: "import { Button } from './button.tsx';\nexport const x = Button;\n",
    rule: 'import/no-restricted-paths',
  },
  {
    name: 'every import is a declared dependency of its own workspace',
    file: 'apps/web/src/lib/lint-fixture.ts',
    bad: "import Fastify from 'fastify';\nexport const x = Fastify;\n",
    good: "import { z } from 'zod';\nexport const x = z;\n",
    rule: 'import/no-extraneous-dependencies',
  },
  {
    name: 'a benchmark imports only what bench/package.json declares',
    file: 'bench/lint-fixture.ts',
    bad: "import { z } from 'zod';\nexport const x = z;\n",
    good: "import autocannon from 'autocannon';\nexport const x = autocannon;\n",
    rule: 'import/no-extraneous-dependencies',
  },
];

/**
 * The account-status rule (issue 26): each way a service used to spell a status, refused, beside
 * the same line written through the domain, accepted. A service file, since the rule covers the
 * server's code and not its tests or schema.
 */
const STATUS_FILE = 'apps/server/src/services/billing/lint-fixture.ts';
const STATUS_IMPORTS = [
  "import { eq, inArray } from 'drizzle-orm';",
  "import { ACCOUNT_STATUS } from '@dealerpass/domain/account/status';",
  "import { BILLING_DUE_STATUSES, canTake } from '@dealerpass/domain/account/status-transitions';",
  "import { users } from '../../db/schema.ts';",
  'declare const user: { accountStatus: string };',
  'export const imported = [eq, inArray, ACCOUNT_STATUS, BILLING_DUE_STATUSES, canTake, users, user];',
].join('\n');
const STATUS_CASES: { name: string; bad: string; good: string }[] = [
  {
    name: "a status list of the service's own (cancel's CANCELLABLE)",
    bad: "export const x = new Set(['active', 'validating payment']);",
    good: "export const x = canTake(user.accountStatus, 'cancel');",
  },
  {
    name: 'a status compared',
    bad: "export const x = user.accountStatus !== 'inactive';",
    good: 'export const x = user.accountStatus !== ACCOUNT_STATUS.inactive;',
  },
  {
    name: 'a status in a query',
    bad: "export const x = eq(users.accountStatus, 'blocked');",
    good: 'export const x = eq(users.accountStatus, ACCOUNT_STATUS.blocked);',
  },
  {
    name: "a status list in SQL text (the billing run's due statuses)",
    bad: "export const x = sql`${users.accountStatus} in ('active', 'pending cancel')`;",
    good: 'export const x = inArray(users.accountStatus, [...BILLING_DUE_STATUSES]);',
  },
  {
    name: "a status as a transition's starting point",
    bad: "export const x = { from: 'inactive', event: 'reactivationCharging' };",
    good: "export const x = { from: ACCOUNT_STATUS.inactive, event: 'reactivationCharging' };",
  },
];

describe('account statuses come from the domain (eslint.config.js)', () => {
  for (const testCase of STATUS_CASES) {
    it(testCase.name, async () => {
      const bad = testCase.bad.includes('sql`')
        ? `import { sql } from 'drizzle-orm';\n${STATUS_IMPORTS}\n${testCase.bad}\n`
        : `${STATUS_IMPORTS}\n${testCase.bad}\n`;
      expect(await rulesBroken(STATUS_FILE, bad)).toContain('no-restricted-syntax');
      expect(await rulesBroken(STATUS_FILE, `${STATUS_IMPORTS}\n${testCase.good}\n`)).toEqual([]);
    });
  }

  it('leaves the same words alone where they are no account status', async () => {
    const code = `${STATUS_IMPORTS}\nexport const x = { status: 'active' as const, note: 'blocked by staff' };\n`;
    expect(await rulesBroken(STATUS_FILE, code)).toEqual([]);
  });
});

describe('import rules (eslint.config.js)', () => {
  for (const testCase of CASES) {
    it(testCase.name, async () => {
      expect(await rulesBroken(testCase.file, testCase.bad)).toContain(testCase.rule);
      expect(await rulesBroken(testCase.file, testCase.good)).toEqual([]);
    });
  }
});
