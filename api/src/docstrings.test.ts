/**
 * DESIGN's house rule, kept true (issue #15 point 7): every exported function under api/src/ and api/contracts/
 * has a docstring and a declared return type. The check is scripts/check-docstrings.ts (`npm run check:docstrings`).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkDocstrings } from '../../scripts/check-docstrings.ts';

const line = (f: { file: string; line: number; name: string; missing: string[] }): string => `${f.file}:${f.line} ${f.name}: no ${f.missing.join(', no ')}`;

describe('docstrings (DESIGN: every exported function states shapes, units, errors, rule source)', () => {
  it('every exported function, const-function, class and public method under api/ has a docstring and a declared return type', () => {
    const { checked, findings } = checkDocstrings();
    expect(checked).toBeGreaterThan(300); // the checker really walked the API
    expect(findings.map(line)).toEqual([]);
  });

  it('names an export without a docstring or without a return type, and accepts a documented one', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'docstrings-'));
    try {
      fs.mkdirSync(path.join(root, 'api/src'), { recursive: true });
      fs.mkdirSync(path.join(root, 'api/contracts'), { recursive: true });
      fs.writeFileSync(path.join(root, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, noEmit: true, allowImportingTsExtensions: true }, include: ['api'] }));
      fs.writeFileSync(path.join(root, 'api/src/sample.ts'), [
        'export function bare() { return 1; }',
        '/** Documented, typed. */',
        'export function good(): number { return 1; }',
        '/** Documented, untyped. */',
        'export const arrow = (n: number) => n + 1;',
        'export class Store { get(): number { return 1; } put(v: number) { return v; } private hidden() { return 0; } }',
        '',
      ].join('\n'));
      fs.writeFileSync(path.join(root, 'api/contracts/ok.ts'), '/** A schema factory. */\nexport const id = (): string => "x";\nexport const NOT_A_FUNCTION = 3;\n');
      const { checked, findings } = checkDocstrings(root);
      expect(findings.map(line)).toEqual([
        'api/src/sample.ts:1 bare: no docstring, no return type',
        'api/src/sample.ts:5 arrow: no return type',
        'api/src/sample.ts:6 Store: no docstring',
        'api/src/sample.ts:6 Store.put: no return type',
      ]);
      expect(checked).toBe(7); // bare, good, arrow, Store, Store.get, Store.put and id; not the private method nor the constant
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
