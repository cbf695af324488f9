import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import globals from 'globals';
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

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '**/coverage/**', 'data/**', 'test-results/**'] },
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
    files: ['packages/domain/**/*.test.ts'],
    rules: { 'no-restricted-globals': 'off', 'no-restricted-syntax': 'off' },
  },
  {
    files: ['apps/server/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@dealerpass/web*', '**/apps/web/**'],
              message: 'the server does not import the web app.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks, 'jsx-a11y': jsxA11y },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...jsxA11y.flatConfigs.recommended.rules,
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@dealerpass/server*', '**/apps/server/**'],
              message: 'the web app talks to the server over HTTP only.',
            },
          ],
        },
      ],
    },
  },
  // Imports flow one way: shared (components, lib) -> features -> app. A feature never imports another feature.
  ...FEATURES.map((feature) => ({
    files: [`apps/web/src/features/${feature}/**/*.{ts,tsx}`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: FEATURES.filter((f) => f !== feature).map((f) => `**/features/${f}/**`),
              message:
                'features do not import each other; move shared code to components/ or lib/.',
            },
            { group: ['**/app/**'], message: 'features do not import the app shell.' },
          ],
        },
      ],
    },
  })),
  {
    files: ['apps/web/src/components/**/*.{ts,tsx}', 'apps/web/src/lib/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/features/**', '**/app/**'],
              message: 'shared code does not import features or the app.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['bench/**/*.ts', 'apps/server/scripts/**/*.ts', 'e2e/**/*.ts'],
    rules: { 'no-console': 'off' },
  },
);
