/**
 * What a JavaScript hook prints never reaches the command's standard output, which is its report: the JSON
 * of `--format json`, the files of `render`. It is reported as HOOK_OUTPUT warnings (on standard error,
 * or among the JSON's problems), the first 20 calls, so that a noisy hook neither corrupts the report nor
 * floods the terminal; and none of it is lost when the command exits. Run with the built CLI, as a user
 * runs it.
 */
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir, tempTree, writeTree } from '../helpers/fs.js';

afterAll(removeTempDirs);

const bin = resolve(import.meta.dirname, '../../dist/cli/bin.cjs');

function cli(cwd: string, ...args: string[]) {
  const r = spawnSync(process.execPath, [bin, ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
    timeout: 60_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function projectWithNoisyHook(): string {
  const repo = tempTree({
    'noisy/template.json': JSON.stringify({ name: 'noisy', always_apply: true, default_settings: {} }),
    'noisy/files/out.txt': 'the file\n',
    'noisy/hooks/after_default_settings.mjs': `export default (state) => {
  for (let i = 0; i < 5000; i++) console.log('noise ' + i);
  process.stdout.write('raw write\\n');
  return state;
};
`,
  });
  return writeTree(tempDir(), {
    'metadata.json': '{"name": "acme-noisy", "version": "1.0.0"}',
    '.sync.yml': `pdk_template:\n  version: 2\n  template_sources:\n    - type: filesystem\n      location: ${repo}\n`,
  });
}

describe('a JavaScript hook that prints', () => {
  const root = projectWithNoisyHook();

  it('leaves `status --format json` valid JSON, its output among the problems', () => {
    const r = cli(root, 'status', '--format', 'json');
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as { problems: { code: string; message: string; line: number }[] };
    const printed = report.problems.filter((p) => p.code === 'HOOK_OUTPUT');
    expect(printed).toHaveLength(21);
    expect(printed[0]).toMatchObject({ message: 'console.log(): noise 0', line: 2 });
    expect(printed[20]!.message).toBe('and 4981 more calls that printed, not shown (the first 20 are)');
    // At the line that printed them, not at the hook's line 1.
    expect(printed[20]!.line).toBe(2);
  });

  it('leaves `render` output the files alone, and says what it printed on standard error', () => {
    const r = cli(root, 'render');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('==> out.txt (noisy) <==\nthe file\n');
    expect(r.stderr).toContain('after_default_settings.mjs:2:');
    expect(r.stderr).toContain('warning: console.log(): noise 0 [HOOK_OUTPUT]');
    expect(r.stderr).not.toContain('noise 20 ');
  });
});
