/**
 * `epp render` given several templates prints what `puppet epp render` prints (checked with Puppet 7.23):
 * a `--- file` header before each output (a blank line before every header but the first), or the outputs
 * run together with `--no-header`; every file is rendered even after one fails, each failure is reported,
 * and a run with a failure prints no output. Both ways into the command are checked: the fast path a bare
 * `epp render` takes, and the full command line a global option leads to.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';

const bin = resolve(import.meta.dirname, '../../dist/cli/bin.cjs');
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pantograph-several-'));
  writeFileSync(join(dir, 'ok.epp'), 'ok\n');
  writeFileSync(join(dir, 'two.epp'), 'two\n');
  writeFileSync(join(dir, 'a.epp'), 'a');
  writeFileSync(join(dir, 'b.epp'), 'b');
  writeFileSync(join(dir, 'bad.epp'), '<%= abs(true) %>');
});

const ways = [
  ['the fast path', []],
  ['the full command line', ['--no-color']],
] as const;

describe.each(ways)('epp render of several templates, through %s', (_way, global) => {
  const render = (...args: string[]) =>
    spawnSync(process.execPath, [bin, ...global, 'epp', 'render', ...args], { cwd: dir, encoding: 'utf8' });

  it('puts a header before each output, a blank line before every header but the first', () => {
    const run = render('ok.epp', 'two.epp');
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe('--- ok.epp\nok\n\n--- two.epp\ntwo\n');
    expect(run.status).toBe(0);
  });

  it('adds no line break between outputs of their own, only at the end', () => {
    expect(render('a.epp', 'b.epp').stdout).toBe('--- a.epp\na\n--- b.epp\nb\n');
    expect(render('--no-header', 'a.epp', 'b.epp').stdout).toBe('ab\n');
  });

  it('renders every file after a failure, reports each failure, and prints no output', () => {
    const run = render('ok.epp', 'bad.epp', 'missing.epp', 'two.epp');
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(
      "bad.epp:1:5: error: Error while evaluating a Function Call, 'abs' parameter 'val' expects a value of type Numeric or String, got Boolean",
    );
    expect(run.stderr).toContain('error: cannot read template missing.epp: no such file');
  });

  it('renders -e alone when files are given beside it, and says they were not rendered', () => {
    const run = render('-e', 'inline', 'ok.epp');
    expect(run.stdout).toBe('inline\n');
    expect(run.stderr).toBe('warning: -e renders its text alone: ok.epp not rendered\n');
    expect(run.status).toBe(0);
  });

  it('prints one template as before: no header', () => {
    expect(render('a.epp').stdout).toBe('a\n');
  });
});
