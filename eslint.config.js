import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import globals from 'globals';
import importPlugin from 'eslint-plugin-import';
import { readdirSync } from 'node:fs';

const FEATURES = [
  'contact',
  'legal',
  'marketing',
  'mailbox',
  'consent',
  'auth',
  'identity',
  'account',
  'snapshot',
  'signup',
  'integrations',
  'admin',
];

// A feature folder missing from the list would escape the no-cross-feature-imports rule below.
const featureFolders = readdirSync(new URL('./apps/web/src/features/', import.meta.url), {
  withFileTypes: true,
})
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const unlisted = featureFolders.filter((folder) => !FEATURES.includes(folder));
if (unlisted.length > 0) {
  throw new Error(`eslint.config.js: add ${unlisted.join(', ')} to FEATURES.`);
}

const WEB = './apps/web/src';
const SERVER = './apps/server/src';

// The product's server code, which may not reach into the sandboxes: they are chosen by the
// plugins and adapters' factories from configuration, and the demo seed pays with the sandbox.
const SERVICES_WITHOUT_SANDBOXES = readdirSync(
  new URL('./apps/server/src/services/', import.meta.url),
  {
    withFileTypes: true,
  },
)
  .filter((entry) => entry.isDirectory() && entry.name !== 'demo')
  .map((entry) => `${SERVER}/services/${entry.name}`);

/** Account statuses the server may not spell itself (see the rule below). */
const TWO_WORD_STATUSES = 'pending cancel|pending reactivation|validating payment';
const ONE_WORD_STATUSES = 'active|inactive|blocked';
const STATUS_NAMES = 'accountStatus|toStatus|fromStatus|state';

/** Who may not import whom (`import/no-restricted-paths`): shared → features → app, one way. */
export const IMPORT_ZONES = [
  {
    target: './packages/domain',
    from: ['./apps', './e2e', './bench'],
    message: 'domain imports nothing from the apps.',
  },
  {
    target: './apps/web',
    from: './apps/server',
    message: 'the web app talks to the server over HTTP only.',
  },
  {
    target: './apps/server',
    from: './apps/web',
    message: 'the server does not import the web app.',
  },
  {
    target: [`${SERVER}/routes`, `${SERVER}/identity`, ...SERVICES_WITHOUT_SANDBOXES],
    from: `${SERVER}/sandboxes`,
    message: 'routes and services do not use a sandbox; the plugins choose one from configuration.',
  },
  {
    target: [`${WEB}/components`, `${WEB}/lib`],
    from: [`${WEB}/features`, `${WEB}/app`],
    message: 'shared code does not import features or the app.',
  },
  {
    target: `${WEB}/features`,
    from: `${WEB}/app`,
    message: 'features do not import the app shell.',
  },
  ...FEATURES.map((feature) => ({
    target: `${WEB}/features/${feature}`,
    from: `${WEB}/features`,
    except: [`./${feature}`],
    message: 'features do not import each other; move shared code to components/ or lib/.',
  })),
];

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/coverage/**',
      'data/**',
      'test-results/**',
      'test-stages/**',
      // tsc -b's declarations and build state (npm run typecheck).
      '.tsbuild/**',
      // tooling/import-cycles.test.ts writes cycles here for a moment and checks them itself.
      'tooling/lint-cycle-fixture/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      eqeqeq: ['error', 'smart'],
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  // The domain package is pure: no I/O, no Node built-ins, nothing from the apps.
  {
    files: ['packages/domain/**/*.ts'],
    languageOptions: { globals: {} },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['node:*', 'fs', 'path', 'http', 'crypto'], message: 'domain has no I/O.' },
            {
              group: ['@dealerpass/server*', '@dealerpass/web*', '**/apps/**'],
              message: 'domain imports nothing from the apps.',
            },
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        'fetch',
        'window',
        'document',
        'localStorage',
        'sessionStorage',
        'process',
      ],
      // No hidden clock or randomness: callers pass the instant and the random source.
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.object.name='Date'][callee.property.name='now']",
          message: 'pass `now` in.',
        },
        {
          selector: "NewExpression[callee.name='Date'][arguments.length=0]",
          message: 'pass `now` in.',
        },
        {
          selector: "MemberExpression[object.name='Math'][property.name='random']",
          message: 'pass a random source in.',
        },
      ],
    },
  },
  {
    // What pages render before anything is checked: no zod, so it is not in their first load
    // (docs/decisions/027). The domain's own rules are repeated: this list replaces theirs.
    files: ['packages/domain/src/forms/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['node:*', 'fs', 'path', 'http', 'crypto'], message: 'domain has no I/O.' },
            {
              group: ['@dealerpass/server*', '@dealerpass/web*', '**/apps/**'],
              message: 'domain imports nothing from the apps.',
            },
            {
              group: ['zod', 'zod/*', '**/schemas/*', '!**/schemas/messages.ts'],
              message: 'forms/ is imported before zod is loaded: no zod, no schema module.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['packages/domain/**/*.test.ts'],
    rules: { 'no-restricted-globals': 'off', 'no-restricted-syntax': 'off' },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks, 'jsx-a11y': jsxA11y },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...jsxA11y.flatConfigs.recommended.rules,
    },
  },
  // The directions between the parts, by where the imported file is (relative paths, package
  // names and aliases alike), in one rule so that no later block can replace part of it. Each
  // is proven by a snippet that must fail: eslint-rules.test.ts. Import cycles are refused by
  // tooling/import-cycles.ts, which `npm run lint` runs after ESLint (docs/decisions/055).
  {
    files: ['**/*.{ts,tsx,js}'],
    plugins: { import: importPlugin },
    settings: {
      // Imports name their files with the extension, which Node's resolution finds as they are.
      'import/extensions': ['.ts', '.tsx', '.js'],
      'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js'] } },
    },
    rules: {
      'import/no-restricted-paths': ['error', { zones: IMPORT_ZONES }],
    },
  },
  // Every import is a dependency its own workspace declares (the root adds only the tooling's
  // devDependencies: tests, browser tests and configuration may use those). The benchmarks
  // declare all of theirs in bench/package.json.
  ...['packages/domain', 'apps/server', 'apps/web', 'e2e', 'bench', '.'].map((workspace) => ({
    files: workspace === '.' ? ['*.{ts,js}', 'tooling/**'] : [`${workspace}/**/*.{ts,tsx}`],
    rules: {
      'import/no-extraneous-dependencies': [
        'error',
        {
          devDependencies: [
            '**/*.test.{ts,tsx}',
            '**/test/**',
            'e2e/**',
            'bench/**',
            'tooling/**',
            '**/*.config.{ts,js}',
            'apps/server/scripts/**',
          ],
          // The root's tooling reads the server's database packages (the test setup's).
          packageDir:
            workspace === '.'
              ? ['.', 'apps/server']
              : workspace === 'bench'
                ? ['bench']
                : [workspace, '.'],
        },
      ],
    },
  })),
  // An account status is the domain's (issue 26, DECISIONS R4): the server names it through
  // ACCOUNT_STATUS and asks the state machine (`canTake`, the due statuses) instead of keeping a
  // list of its own. The two-word statuses are banned anywhere; 'active', 'inactive' and 'blocked'
  // are common words, so they are banned where they meet a status (a comparison, a query or a
  // field named for one) and in SQL text. The schema holds the column's default; the demo lists
  // are plain data the browser tests read without the domain.
  {
    files: ['apps/server/src/**/*.ts'],
    ignores: [
      '**/*.test.ts',
      'apps/server/src/db/schema.ts',
      'apps/server/src/services/demo/demo-accounts.ts',
    ],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...[
          `Literal[value=/^(${TWO_WORD_STATUSES})$/]`,
          `TemplateElement[value.raw=/'(${ONE_WORD_STATUSES}|${TWO_WORD_STATUSES})'/]`,
          `BinaryExpression:has(Identifier[name=/^(${STATUS_NAMES})$/]) > Literal[value=/^(${ONE_WORD_STATUSES})$/]`,
          `CallExpression:has(Identifier[name=/^(${STATUS_NAMES})$/]) > Literal[value=/^(${ONE_WORD_STATUSES})$/]`,
          `Property[key.name=/^(${STATUS_NAMES}|from|to)$/] > Literal[value=/^(${ONE_WORD_STATUSES})$/]`,
        ].map((selector) => ({
          selector,
          message:
            'an account status comes from the domain (ACCOUNT_STATUS, canTake, BILLING_DUE_STATUSES), not a literal.',
        })),
      ],
    },
  },
  {
    files: ['bench/**/*.ts', 'apps/server/scripts/**/*.ts', 'e2e/**/*.ts'],
    rules: { 'no-console': 'off' },
  },
);
