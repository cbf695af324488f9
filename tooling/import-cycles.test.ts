import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ESLint } from 'eslint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CYCLE_FIXTURES, findImportCycles, formatCycles, importResolver } from './import-cycles.ts';

/**
 * The import-cycle check (tooling/import-cycles.ts, docs/decisions/055) replaced ESLint's
 * `import/no-cycle`. Proven against that rule itself: the same modules, written into a folder the
 * project's lint, tsc and Prettier leave out, are linted with the old rule (its options as they
 * were in eslint.config.js) and checked with the new one; every file the old rule reported must
 * lie on a cycle the new one reports, and the cases it let pass are named one by one.
 */
const root = join(import.meta.dirname, '..');
const folder = join(root, CYCLE_FIXTURES);

/** Each case's modules; `cyclic` lists the files the new check must put on a cycle. */
const CASES: { name: string; files: Record<string, string>; cyclic: string[] }[] = [
  {
    name: 'two modules importing each other',
    files: {
      'a.ts': "import { b } from './b.ts';\nexport const a = () => b;\n",
      'b.ts': "import { a } from './a.ts';\nexport const b = () => a;\n",
    },
    cyclic: ['a.ts', 'b.ts'],
  },
  {
    name: 'a one-way import (no cycle)',
    files: {
      'c.ts': 'export const c = 1;\n',
      'd.ts': "import { c } from './c.ts';\nexport const d = c;\n",
    },
    cyclic: [],
  },
  {
    name: 'three modules in a ring, across folders, with an extensionless import',
    files: {
      'ring/p.ts': "import { q } from './deeper/q.ts';\nexport const p = () => q;\n",
      'ring/deeper/q.ts': "import { r } from '../r';\nexport const q = () => r;\n",
      'ring/r.ts': "import { p } from './p.ts';\nexport const r = () => p;\n",
    },
    cyclic: ['ring/deeper/q.ts', 'ring/p.ts', 'ring/r.ts'],
  },
  {
    name: 'a re-export closing the ring',
    files: {
      'reexport/e1.ts': "export { e2 } from './e2.ts';\nexport const e1 = 1;\n",
      'reexport/e2.ts': "import { e1 } from './e1.ts';\nexport const e2 = () => e1;\n",
    },
    cyclic: ['reexport/e1.ts', 'reexport/e2.ts'],
  },
  {
    name: 'a type re-export beside a value import (the old rule followed it)',
    files: {
      'typeexport/t1.ts': "export type { T2 } from './t2.ts';\nexport const t1 = 1;\n",
      'typeexport/t2.ts':
        "import { t1 } from './t1.ts';\nexport type T2 = number;\nexport const t2 = () => t1;\n",
    },
    cyclic: ['typeexport/t1.ts', 'typeexport/t2.ts'],
  },
  {
    name: 'a dynamic import one way, a static one back',
    files: {
      'dynamic/x.ts': "export const x = () => import('./y.ts');\n",
      'dynamic/y.ts': "import { x } from './x.ts';\nexport const y = () => x;\n",
    },
    cyclic: ['dynamic/x.ts', 'dynamic/y.ts'],
  },
  {
    name: 'a side-effect import one way',
    files: {
      'effect/s1.ts': "import './s2.ts';\nexport const s1 = 1;\n",
      'effect/s2.ts': "import { s1 } from './s1.ts';\nexport const s2 = () => s1;\n",
    },
    cyclic: ['effect/s1.ts', 'effect/s2.ts'],
  },
  {
    name: 'a .tsx component and its module',
    files: {
      'tsx/view.tsx':
        "import { label } from './label.ts';\nexport const View = () => <p>{label}</p>;\n",
      'tsx/label.ts': "import { View } from './view.tsx';\nexport const label = String(View);\n",
    },
    cyclic: ['tsx/label.ts', 'tsx/view.tsx'],
  },
  {
    name: 'type-only imports both ways (no cycle at run time, nor for the old rule)',
    files: {
      'types/u1.ts': "import type { U2 } from './u2.ts';\nexport type U1 = { next?: U2 };\n",
      'types/u2.ts': "import { type U1 } from './u1.ts';\nexport type U2 = { next?: U1 };\n",
    },
    cyclic: [],
  },
  {
    name: 'a value import one way, a type-only import back',
    files: {
      'mixed/m1.ts':
        "import { m2 } from './m2.ts';\nexport type M1 = number;\nexport const m1 = m2;\n",
      'mixed/m2.ts': "import type { M1 } from './m1.ts';\nexport const m2: M1 = 1;\n",
    },
    cyclic: [],
  },
];

/** The rule as eslint.config.js had it, on the fixture folder (which the project's lint ignores). */
const oldRule = new ESLint({
  cwd: root,
  ignore: false,
  overrideConfig: {
    files: ['**/*.{ts,tsx,js}'],
    settings: { 'import/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] } },
    rules: { 'import/no-cycle': ['error', { ignoreExternal: true }] },
  },
});

describe('the import-cycle check (tooling/import-cycles.ts)', () => {
  beforeAll(() => {
    for (const testCase of CASES) {
      for (const [name, code] of Object.entries(testCase.files)) {
        mkdirSync(dirname(join(folder, name)), { recursive: true });
        writeFileSync(join(folder, name), code);
      }
    }
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('reports every file that import/no-cycle reported, and the same cases pass', async () => {
    const files = CASES.flatMap((testCase) => Object.keys(testCase.files));
    const results = await oldRule.lintFiles(files.map((name) => join(folder, name)));
    const oldReported = results
      .filter((result) => result.messages.some((m) => m.ruleId === 'import/no-cycle'))
      .map((result) => result.filePath.slice(folder.length + 1))
      .sort();
    const report = findImportCycles(root, { folders: [CYCLE_FIXTURES], ignore: [] });
    const newReported = report.cycles.flatMap((cycle) => cycle.files).map(strip);

    // The old rule is a real reference: it found these. It let one file pass: effect/s1.ts, whose
    // side-effect import it skipped when linting that file (it did follow it from effect/s2.ts).
    expect(oldReported).toEqual(
      CASES.flatMap((testCase) => testCase.cyclic)
        .filter((file) => file !== 'effect/s1.ts')
        .sort(),
    );
    for (const file of oldReported) expect(newReported).toContain(file);
    expect(newReported.sort()).toEqual(CASES.flatMap((testCase) => testCase.cyclic).sort());
  });

  for (const testCase of CASES) {
    it(testCase.name, () => {
      const names = Object.keys(testCase.files);
      const report = findImportCycles(root, { folders: [CYCLE_FIXTURES], ignore: [] });
      const found = report.cycles
        .map((cycle) => cycle.files.map(strip))
        .filter((files) => files.some((file) => names.includes(file)));
      if (testCase.cyclic.length === 0) {
        expect(found).toEqual([]);
      } else {
        expect(found).toEqual([testCase.cyclic]);
      }
    });
  }

  it('names the files on each cycle and the imports that close it', () => {
    const report = findImportCycles(root, { folders: [`${CYCLE_FIXTURES}/ring`], ignore: [] });
    expect(report.cycles).toHaveLength(1);
    const [cycle] = report.cycles;
    expect(cycle!.path.map((edge) => [strip(edge.from), edge.line, edge.specifier])).toEqual([
      ['ring/deeper/q.ts', 1, '../r'],
      ['ring/r.ts', 1, './p.ts'],
      ['ring/p.ts', 1, './deeper/q.ts'],
    ]);
    expect(formatCycles(report)).toContain(
      `${CYCLE_FIXTURES}/ring/r.ts:1 imports './p.ts' → ${CYCLE_FIXTURES}/ring/p.ts`,
    );
  });

  it("follows a workspace's package name to its files (package.json exports)", () => {
    const resolve = importResolver(root);
    const importer = join(root, 'apps/server/src/services/billing/run-billing.ts');
    expect(resolve('@dealerpass/domain/account/status', importer)).toBe(
      join(root, 'packages/domain/src/account/status.ts'),
    );
    expect(resolve('./ledger/billing-deps.ts', importer)).toBe(
      join(root, 'apps/server/src/services/billing/ledger/billing-deps.ts'),
    );
    // Packages from the registry are no part of the graph.
    expect(resolve('drizzle-orm', importer)).toBeUndefined();
  });
});

function strip(file: string): string {
  return file.slice(CYCLE_FIXTURES.length + 1);
}
