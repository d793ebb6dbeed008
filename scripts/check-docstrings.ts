/**
 * Docstring checker (DESIGN: "every exported function has a docstring and a declared return type"; issue #15 point 7).
 *
 * Lists every exported function under `api/src/` and `api/contracts/` (test files excluded) that has no JSDoc
 * comment with text, or no declared return type. Counted as functions: `export function`, `export default
 * function`, `export const x = (…) => …` / `function (…) {…}`, and exported classes (the class needs a JSDoc;
 * each of its public methods needs a declared return type). Uses the TypeScript 7 compiler API (the `tsgo`
 * process behind `typescript/unstable/sync`), parsing only; no type checking.
 *
 * `node scripts/check-docstrings.ts` prints one line per finding and exits 1 if there is any;
 * `api/src/docstrings.test.ts` runs the same check in vitest.
 */
import { readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { API } from 'typescript/unstable/sync';
import { SyntaxKind, type Node } from 'typescript/unstable/ast';

/** One exported function (or class, or class method) that breaks the rule. */
export interface DocFinding {
  /** Path relative to the repository root, with `/`. */
  file: string;
  /** 1-based line of the declaration. */
  line: number;
  /** Exported name (`Class.method` for methods). */
  name: string;
  /** What is missing. */
  missing: ('docstring' | 'return type')[];
}

/** Totals of one run: how many exported functions were looked at, and the findings among them. */
export interface DocReport {
  /** Exported functions, const-functions, classes and public class methods examined. */
  checked: number;
  findings: DocFinding[];
}

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));
const FOLDERS = ['api/src', 'api/contracts'];

/** Every `.ts` file under `dir`, recursively, minus tests (`*.test.ts`) and migrations. */
function tsFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) { if (name !== 'migrations' && name !== 'node_modules') out.push(...tsFiles(p)); continue; }
    if (name.endsWith('.ts') && !name.endsWith('.test.ts') && !name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

// Nodes of the TS7 API expose fields by getter; these helpers keep the casts in one place.
type AnyNode = Node & Record<string, any>;
const hasDocText = (n: AnyNode): boolean =>
  ((n.jsDoc ?? []) as AnyNode[]).some((d) => typeof d.comment === 'string' ? d.comment.trim() !== '' : (d.comment?.length ?? 0) > 0 || (d.tags?.length ?? 0) > 0);
const modifierKinds = (n: AnyNode): SyntaxKind[] => ((n.modifiers ?? []) as AnyNode[]).map((m) => m.kind);
const isExported = (n: AnyNode): boolean => modifierKinds(n).includes(SyntaxKind.ExportKeyword);
const nameOf = (n: AnyNode): string => (n.name?.text as string | undefined) ?? 'default';

/**
 * Runs the check over `api/src/` and `api/contracts/` of the checkout at `root` (default: this repository).
 * Returns the findings, sorted by file and line; an empty `findings` means the rule holds. Throws if the
 * TypeScript API cannot start (the `tsgo` binary of the `typescript` package is missing).
 */
export function checkDocstrings(root: string = ROOT): DocReport {
  const files = FOLDERS.flatMap((f) => tsFiles(join(root, f)));
  const api = new API({ cwd: root });
  const findings: DocFinding[] = [];
  let checked = 0;
  try {
    const snapshot = api.updateSnapshot({ openProjects: [join(root, 'tsconfig.json')] });
    const project = snapshot.getProjects()[0];
    if (!project) throw new Error('check-docstrings: tsconfig.json did not open as a project');
    for (const file of files) {
      const sf = project.program.getSourceFile(file);
      if (!sf) throw new Error(`check-docstrings: ${file} is not part of the tsconfig project`);
      const text = sf.text;
      const lineOf = (n: AnyNode): number => text.slice(0, n.getStart?.() ?? n.pos).split('\n').length;
      const rel = relative(root, file).split('\\').join('/');
      const report = (n: AnyNode, name: string, doc: boolean, returnType: boolean): void => {
        checked++;
        const missing: DocFinding['missing'] = [];
        if (!doc) missing.push('docstring');
        if (!returnType) missing.push('return type');
        if (missing.length) findings.push({ file: rel, line: lineOf(n), name, missing });
      };
      for (const st of sf.statements as readonly AnyNode[]) {
        if (!isExported(st)) continue;
        if (st.kind === SyntaxKind.FunctionDeclaration) {
          if (!st.body) continue; // overload signature: the implementation carries the doc
          report(st, nameOf(st), hasDocText(st) || hasOverloadDoc(sf.statements as readonly AnyNode[], st), Boolean(st.type));
        } else if (st.kind === SyntaxKind.VariableStatement) {
          for (const decl of st.declarationList.declarations as readonly AnyNode[]) {
            const init = decl.initializer as AnyNode | undefined;
            if (!init || (init.kind !== SyntaxKind.ArrowFunction && init.kind !== SyntaxKind.FunctionExpression)) continue;
            report(st, nameOf(decl), hasDocText(st), Boolean(init.type) || Boolean(decl.type));
          }
        } else if (st.kind === SyntaxKind.ClassDeclaration) {
          report(st, nameOf(st), hasDocText(st), true);
          for (const m of st.members as readonly AnyNode[]) {
            if (m.kind !== SyntaxKind.MethodDeclaration || !m.body) continue;
            const mods = modifierKinds(m);
            if (mods.includes(SyntaxKind.PrivateKeyword) || mods.includes(SyntaxKind.ProtectedKeyword) || m.name?.kind === SyntaxKind.PrivateIdentifier) continue;
            report(m, `${nameOf(st)}.${nameOf(m)}`, true, Boolean(m.type));
          }
        }
      }
    }
  } finally {
    api.close();
  }
  findings.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line);
  return { checked, findings };
}

/** An overloaded function may carry its JSDoc on the first signature rather than on the implementation. */
function hasOverloadDoc(statements: readonly AnyNode[], impl: AnyNode): boolean {
  return statements.some((s) => s !== impl && s.kind === SyntaxKind.FunctionDeclaration && !s.body && nameOf(s) === nameOf(impl) && hasDocText(s));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { checked, findings } = checkDocstrings();
  for (const f of findings) console.log(`${f.file}:${f.line} ${f.name}: no ${f.missing.join(', no ')}`);
  console.log(`${checked} exported functions checked, ${findings.length} without a docstring or a declared return type` +
    ` (${findings.filter((f) => f.missing.includes('docstring')).length} without docstring, ${findings.filter((f) => f.missing.includes('return type')).length} without return type)`);
  process.exit(findings.length ? 1 : 0);
}
