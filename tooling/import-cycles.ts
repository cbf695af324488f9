import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

/**
 * The import-cycle check of `npm run lint` (docs/decisions/055), in place of ESLint's
 * `import/no-cycle`, which followed every import from every linted file again and took three
 * quarters of ESLint's time. This reads each source file once, builds the graph of the
 * repository's own imports (relative paths and the workspaces' package names) and reports every
 * strongly connected component of more than one file: every file on a cycle, and one cycle through
 * them with the importing lines.
 *
 * An edge is what `import/no-cycle` (with `ignoreExternal`) followed: a static import, a side-effect
 * import, a re-export (`export … from`, also `export type { … } from`) and a dynamic `import('…')`
 * with a literal path. Not an edge, as there: an `import type …`, and an import whose names are all
 * `type` ones; also packages outside the workspaces, and a module importing itself.
 * tooling/import-cycles.test.ts proves that it reports every file the old rule reported.
 */

const SOURCE = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;
const EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];

/** Folders the project's lint leaves out (eslint.config.js's ignores), and git's own. */
export const IGNORED_FOLDERS = [
  '.git',
  'node_modules',
  'dist',
  'coverage',
  'data',
  'test-results',
  'test-stages',
  'playwright-report',
  '.tsbuild',
];
/** Written by the proofs for a moment and checked by them alone (tooling/import-cycles.test.ts). */
export const CYCLE_FIXTURES = 'tooling/lint-cycle-fixture';

export interface ImportEdge {
  from: string;
  to: string;
  /** The specifier as written, and its line (1-based) in `from`. */
  specifier: string;
  line: number;
}

export interface ImportCycle {
  /** Every file of the strongly connected component, relative to the root, sorted. */
  files: string[];
  /** One cycle through the component's first file, as the imports that make it. */
  path: ImportEdge[];
}

export interface CycleReport {
  fileCount: number;
  edgeCount: number;
  cycles: ImportCycle[];
}

interface Options {
  /** Folders (relative to root) to read; the whole root when absent. */
  folders?: string[];
  /** Folders (relative to root) left out besides IGNORED_FOLDERS; CYCLE_FIXTURES by default. */
  ignore?: string[];
}

export function findImportCycles(root: string, options: Options = {}): CycleReport {
  const ignored = new Set((options.ignore ?? [CYCLE_FIXTURES]).map((folder) => join(root, folder)));
  const files: string[] = [];
  for (const folder of options.folders ?? ['.']) walk(join(root, folder), ignored, files);

  const workspaces = readWorkspaces(root);
  const edges = new Map<string, ImportEdge[]>();
  const queue = [...files];
  const seen = new Set(queue);
  while (queue.length > 0) {
    const file = queue.pop()!;
    const found: ImportEdge[] = [];
    for (const { specifier, line } of runtimeImports(file)) {
      const target = resolveImport(specifier, file, workspaces);
      if (target === undefined || target === file) continue;
      found.push({ from: file, to: target, specifier, line });
      // A file outside the folders read (one an import reaches) is read too, as no-cycle did.
      if (!seen.has(target)) {
        seen.add(target);
        queue.push(target);
      }
    }
    edges.set(file, found);
  }

  const cycles = stronglyConnected([...edges.keys()], edges)
    .filter((component) => component.length > 1)
    .map((component) => describeCycle(component, edges, root))
    .sort((a, b) => a.files[0]!.localeCompare(b.files[0]!));
  let edgeCount = 0;
  for (const list of edges.values()) edgeCount += list.length;
  return { fileCount: edges.size, edgeCount, cycles };
}

function walk(folder: string, ignored: Set<string>, into: string[]): void {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) {
      if (IGNORED_FOLDERS.includes(entry.name) || ignored.has(path)) continue;
      walk(path, ignored, into);
    } else if (entry.isFile() && SOURCE.test(entry.name)) {
      into.push(path);
    }
  }
}

/** The module specifiers a file imports at run time, with their lines. */
export function runtimeImports(file: string): { specifier: string; line: number }[] {
  const text = readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, scriptKind(file));
  const found: { specifier: string; line: number }[] = [];
  const add = (node: ts.Expression | undefined) => {
    if (node && ts.isStringLiteralLike(node)) {
      const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
      found.push({ specifier: node.text, line: line + 1 });
    }
  };
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement)) {
      if (!onlyTypes(statement.importClause)) add(statement.moduleSpecifier);
    } else if (ts.isExportDeclaration(statement)) {
      add(statement.moduleSpecifier);
    }
  }
  if (text.includes('import(')) {
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
        add(node.arguments[0]);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

/** `import type …`, or `import { type A, type B }`: gone at run time (a side-effect import is not). */
function onlyTypes(clause: ts.ImportClause | undefined): boolean {
  if (!clause) return false;
  if (clause.isTypeOnly) return true;
  if (clause.name) return false;
  const bindings = clause.namedBindings;
  return (
    bindings !== undefined &&
    ts.isNamedImports(bindings) &&
    bindings.elements.length > 0 &&
    bindings.elements.every((element) => element.isTypeOnly)
  );
}

function scriptKind(file: string): ts.ScriptKind {
  if (file.endsWith('.tsx')) return ts.ScriptKind.TSX;
  if (file.endsWith('.jsx')) return ts.ScriptKind.JSX;
  if (/\.[mc]?js$/.test(file)) return ts.ScriptKind.JS;
  return ts.ScriptKind.TS;
}

interface Workspace {
  name: string;
  folder: string;
  exports: unknown;
}

function readWorkspaces(root: string): Workspace[] {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    workspaces?: string[];
  };
  return (manifest.workspaces ?? []).flatMap((folder) => {
    const path = join(root, folder, 'package.json');
    if (!existsSync(path)) return [];
    const workspace = JSON.parse(readFileSync(path, 'utf8')) as { name: string; exports?: unknown };
    return [{ name: workspace.name, folder: join(root, folder), exports: workspace.exports }];
  });
}

/** Resolves specifiers as the check does, from a file under root (for the proofs). */
export function importResolver(
  root: string,
): (specifier: string, importer: string) => string | undefined {
  const workspaces = readWorkspaces(root);
  return (specifier, importer) => resolveImport(specifier, importer, workspaces);
}

/** The file a specifier names, when it is one of the repository's own; undefined otherwise. */
function resolveImport(
  specifier: string,
  importer: string,
  workspaces: Workspace[],
): string | undefined {
  const bare = specifier.replace(/[?#].*$/, '');
  if (bare.startsWith('.') || bare.startsWith('/')) {
    return sourceFile(resolve(dirname(importer), bare));
  }
  const workspace = workspaces.find(
    (candidate) => bare === candidate.name || bare.startsWith(`${candidate.name}/`),
  );
  if (!workspace) return undefined;
  const subpath = `.${bare.slice(workspace.name.length)}`;
  const mapped = exportTarget(workspace.exports, subpath) ?? subpath;
  return sourceFile(resolve(workspace.folder, mapped));
}

/** A package's `exports` entry for a subpath: an exact key or one `*` pattern, its string target. */
function exportTarget(exports: unknown, subpath: string): string | undefined {
  if (typeof exports === 'string') return subpath === '.' ? exports : undefined;
  if (!exports || typeof exports !== 'object') return undefined;
  const map = exports as Record<string, unknown>;
  const target = (value: unknown): string | undefined => {
    if (typeof value === 'string') return value;
    if (value && typeof value === 'object') {
      const conditions = value as Record<string, unknown>;
      return target(conditions.import ?? conditions.default ?? conditions.types);
    }
    return undefined;
  };
  if (subpath in map) return target(map[subpath]);
  for (const [key, value] of Object.entries(map)) {
    const star = key.indexOf('*');
    if (star < 0) continue;
    const [prefix, suffix] = [key.slice(0, star), key.slice(star + 1)];
    if (subpath.startsWith(prefix) && subpath.endsWith(suffix)) {
      const middle = subpath.slice(prefix.length, subpath.length - suffix.length);
      return target(value)?.replaceAll('*', middle);
    }
  }
  return undefined;
}

/** The source file a path stands for: itself, `.js` written for `.ts`, an added extension, an index. */
function sourceFile(path: string): string | undefined {
  const candidates = [path];
  if (/\.[mc]?jsx?$/.test(path)) {
    const stem = path.replace(/\.([mc]?)js(x?)$/, '');
    candidates.push(...EXTENSIONS.map((extension) => stem + extension));
  }
  candidates.push(...EXTENSIONS.map((extension) => path + extension));
  candidates.push(...EXTENSIONS.map((extension) => join(path, `index${extension}`)));
  for (const candidate of candidates) {
    if (!SOURCE.test(candidate) || candidate.split(sep).includes('node_modules')) continue;
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

/** Tarjan's strongly connected components, without recursion (long import chains). */
function stronglyConnected(nodes: string[], edges: Map<string, ImportEdge[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let counter = 0;
  for (const start of nodes) {
    if (index.has(start)) continue;
    const frames: { node: string; next: number }[] = [{ node: start, next: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (frames.length > 0) {
      const frame = frames[frames.length - 1]!;
      const out = edges.get(frame.node) ?? [];
      if (frame.next < out.length) {
        const to = out[frame.next++]!.to;
        if (!index.has(to)) {
          index.set(to, counter);
          low.set(to, counter++);
          stack.push(to);
          onStack.add(to);
          frames.push({ node: to, next: 0 });
        } else if (onStack.has(to)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(to)!));
        }
        continue;
      }
      frames.pop();
      const parent = frames[frames.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        components.push(component);
      }
    }
  }
  return components;
}

/** The component's files, and the shortest cycle from its first file back to it. */
function describeCycle(
  component: string[],
  edges: Map<string, ImportEdge[]>,
  root: string,
): ImportCycle {
  const members = new Set(component);
  const files = [...component].sort();
  const start = files[0]!;
  const via = new Map<string, ImportEdge>();
  const queue = [start];
  let closing: ImportEdge | undefined;
  while (queue.length > 0 && !closing) {
    const node = queue.shift()!;
    for (const edge of edges.get(node) ?? []) {
      if (!members.has(edge.to)) continue;
      if (edge.to === start) {
        closing = edge;
        break;
      }
      if (!via.has(edge.to)) {
        via.set(edge.to, edge);
        queue.push(edge.to);
      }
    }
  }
  const path: ImportEdge[] = [];
  for (let edge = closing; edge; edge = edge.from === start ? undefined : via.get(edge.from)) {
    path.unshift(edge);
  }
  const rel = (file: string) => relative(root, file);
  return {
    files: files.map(rel),
    path: path.map((edge) => ({ ...edge, from: rel(edge.from), to: rel(edge.to) })),
  };
}

export function formatCycles(report: CycleReport): string {
  return report.cycles
    .map((cycle, n) => {
      const steps = cycle.path.map(
        (edge) => `    ${edge.from}:${edge.line} imports '${edge.specifier}' → ${edge.to}`,
      );
      return [
        `import cycle ${n + 1} of ${report.cycles.length}: ${cycle.files.length} files`,
        ...cycle.files.map((file) => `  ${file}`),
        '  one cycle through them:',
        ...steps,
      ].join('\n');
    })
    .join('\n\n');
}

if (import.meta.filename === process.argv[1]) {
  const began = performance.now();
  const report = findImportCycles(join(import.meta.dirname, '..'));
  const seconds = ((performance.now() - began) / 1000).toFixed(1);
  if (report.cycles.length > 0) {
    console.error(formatCycles(report));
    console.error(
      `\n${report.cycles.length} import cycle(s) among ${report.fileCount} files: break each by moving what both sides need into a module of its own.`,
    );
    process.exit(1);
  }
  process.stdout.write(
    `import cycles: none among ${report.fileCount} files and ${report.edgeCount} imports (${seconds} s)\n`,
  );
}
