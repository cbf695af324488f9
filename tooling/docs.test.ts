import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The documents stay true to the code (issue 26 item 9): every decision record is in the index,
 * and every file, folder and code name ARCHITECTURE.md writes in backticks exists. A name that
 * was renamed or never built (once, `oncePerRequestKey`) fails here instead of misleading the
 * next reader.
 */
const ROOT = join(import.meta.dirname, '..');
const DECISIONS = join(ROOT, 'docs/decisions');

/** Where a path in the architecture document may be written from. */
const BASES = [
  '',
  'apps/server/',
  'apps/server/src/',
  'apps/server/src/services/',
  'apps/server/src/plugins/',
  'apps/web/',
  'apps/web/src/',
  'apps/web/src/features/',
  'packages/domain/src/',
  'e2e/',
];

function tracked(): string[] {
  return execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' }).split('\n');
}

/** A backticked token that names a file or folder of ours: a path with a known ending or a slash. */
function isPath(token: string): boolean {
  if (/[\s{}<>*…?:=()|]/.test(token) || token.startsWith('/') || token.startsWith('@'))
    return false;
  // Build output (`.vite/…`) and dotfiles are made, not kept.
  if (token.startsWith('.')) return false;
  return (
    /\.(ts|tsx|md|json|css|cfg|yaml|sql)$/.test(token) || /^[\w.-]+(\/[\w.-]+)*\/$/.test(token)
  );
}

/** A backticked token that is a code name: camelCase, with or without a call's parentheses. */
function codeName(token: string): string | undefined {
  const match = /^([a-z]+[A-Z]\w*)(\(\))?$/.exec(token);
  return match?.[1];
}

function pathExists(files: string[], token: string): boolean {
  // Written inside a section about its folder ("`schema.ts`" under db/): any folder of ours.
  const inSomeFolder = token.endsWith('/')
    ? files.some((file) => file.includes(`/${token}`))
    : files.some((file) => file.endsWith(`/${token}`));
  if (inSomeFolder) return true;
  return BASES.some((base) => {
    const path = base + token;
    return path.endsWith('/')
      ? files.some((file) => file.startsWith(path))
      : existsSync(join(ROOT, path)) || files.includes(path);
  });
}

function sourceHas(name: string): boolean {
  try {
    execFileSync(
      'git',
      ['grep', '-q', '-w', name, '--', '*.ts', '*.tsx', ':!tooling/docs.test.ts'],
      {
        cwd: ROOT,
      },
    );
    return true;
  } catch {
    return false;
  }
}

describe('documents', () => {
  it('lists every decision record in the index, and nothing else', () => {
    const records = readdirSync(DECISIONS).filter((name) => /^\d{3}-.+\.md$/.test(name));
    const index = readFileSync(join(DECISIONS, 'README.md'), 'utf8');
    const linked = [...index.matchAll(/\]\((\d{3}-[^)]+\.md)\)/g)].map((match) => match[1]);
    expect(linked.sort()).toEqual(records.sort());
    const numbers = records.map((name) => name.slice(0, 3));
    expect(new Set(numbers).size, 'two records share a number').toBe(numbers.length);
  });

  it('names in ARCHITECTURE.md only files, folders and code that exist', () => {
    const text = readFileSync(join(ROOT, 'ARCHITECTURE.md'), 'utf8');
    const tokens = [...new Set([...text.matchAll(/`([^`\n]+)`/g)].map((match) => match[1]!))];
    const files = tracked();
    const missingPaths = tokens.filter((token) => isPath(token) && !pathExists(files, token));
    const missingNames = tokens
      .map(codeName)
      .filter((name): name is string => name !== undefined && !sourceHas(name));
    expect(missingPaths, 'paths that do not exist').toEqual([]);
    expect(missingNames, 'code names found nowhere in the source').toEqual([]);
  });

  it('finds a name that does not exist (the check can fail)', () => {
    expect(sourceHas('oncePerRequestKey')).toBe(false);
    expect(pathExists(tracked(), 'services/no-such-service/')).toBe(false);
    expect(sourceHas('oncePerKey')).toBe(true);
  });
});
