/**
 * An internal error's stack names the TypeScript sources (src/cli/stack.ts), though the command line's
 * bundles are minified: checked against the build's own bundle and source map (`npm test` builds first).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readableStack } from '../../src/cli/stack.js';

const root = resolve(import.meta.dirname, '../..');

/** 1-based line and column of `needle` in `text`. */
function positionOf(text: string, needle: string): { line: number; column: number } {
  const offset = text.indexOf(needle);
  expect(offset).toBeGreaterThanOrEqual(0);
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: before.at(-1)!.length + 1 };
}

describe('readableStack', () => {
  for (const [bundle, fn, source, declared] of [
    [
      'dist/cli/main.cjs',
      'function summaryLine(',
      'src/cli/commands/status-report.ts',
      'export function summaryLine(',
    ],
    [
      'dist/cli/fast-epp-render.cjs',
      'function readTemplate(',
      'src/cli/commands/epp.ts',
      'function readTemplate(',
    ],
  ] as const) {
    it(`puts a frame of ${bundle} at its source's line`, () => {
      const file = join(root, bundle);
      const at = positionOf(readFileSync(file, 'latin1'), fn);
      expect(at.line).toBeLessThan(5_000); // minified: the bundle's lines are long ones
      const stack = `Error: boom\n    at ${fn.slice(9, -1)} (${file}:${at.line}:${at.column})\n    at ${file}:${at.line}:${at.column}`;
      const expected = positionOf(readFileSync(join(root, source), 'utf8'), declared);
      const lines = readableStack(stack).split('\n');
      expect(lines[0]).toBe('Error: boom');
      expect(lines[1]).toMatch(
        new RegExp(`^    at ${fn.slice(9, -1)} \\(${source}:${expected.line}:\\d+\\)$`),
      );
      expect(lines[2]).toMatch(new RegExp(`^    at ${source}:${expected.line}:\\d+$`));
    });
  }

  it('leaves frames it has no map for, and frames a damaged map cannot place, as they are', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pantograph-stack-'));
    writeFileSync(join(dir, 'broken.cjs'), 'x');
    writeFileSync(join(dir, 'broken.cjs.map'), '{ not json');
    const stack = [
      'TypeError: x is not a function',
      '    at run (node:internal/main/run_main_module:28:49)',
      `    at f (${join(dir, 'nomap.cjs')}:1:10)`,
      `    at g (${join(dir, 'broken.cjs')}:1:1)`,
    ].join('\n');
    expect(readableStack(stack)).toBe(stack);
  });
});
