/**
 * A subscriber with its own template_schema.json (as `new template` makes one) that does not list the
 * name it subscribes to: the guide says the value arrives as a setting of that name, so it is not an
 * unknown setting (it was one, placed at the publisher's template.json); the publisher's schema still
 * judges it.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs, tempTree } from '../helpers/fs.js';

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

function repository(projectValue = '', published: unknown[] = ['my_check']) {
  return tempTree({
    'publisher/template.json': JSON.stringify({
      name: 'publisher',
      default_settings: {},
      shared_settings: {
        ci_checks: {
          description: 'Checks CI runs.',
          schema: { type: 'array', items: { type: 'string' } },
          value: published,
        },
      },
    }),
    'ci/template.json': JSON.stringify({
      name: 'ci',
      default_settings: { greeting: 'Hello' },
      setting_subscriptions: ['ci_checks'],
    }),
    'ci/template_schema.json': JSON.stringify({
      type: 'object',
      properties: { greeting: { type: 'string' } },
    }),
    'ci/files/checks.txt.epp':
      '<%- | Array[String] $ci_checks = [] | -%>\n<% $ci_checks.each |$c| { -%>\ncheck: <%= $c %>\n<% } -%>\n',
    'ci/tests/basic/.sync.yml': `pdk_template:\n  version: 2\n  templates: [ci, publisher]\n${projectValue}`,
    'ci/tests/basic/expected/checks.txt': 'check: my_check\n',
  });
}

describe("a subscription its subscriber's own schema does not list", () => {
  it('arrives as a setting of that name: the case passes', () => {
    const repo = repository();
    const r = cli(repo, 'test');
    expect(r.stderr).not.toContain('SETTINGS_UNKNOWN_KEY');
    expect(r.stdout).toContain('PASS ci/basic');
    expect(r.code).toBe(0);
    expect(readFileSync(join(repo, 'ci/tests/basic/expected/checks.txt'), 'utf8')).toBe('check: my_check\n');
  });

  it("is still judged by the publisher's schema, at the project's value", () => {
    const repo = repository('  shared_settings:\n    ci_checks: [1]\n');
    const r = cli(repo, 'test');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/ci\/tests\/basic\/\.sync\.yml:5:17: error: .*must be a string/);
    expect(r.stderr).not.toContain('SETTINGS_UNKNOWN_KEY');
    expect(r.stderr).not.toContain('EPP_TYPE_MISMATCH');
  });

  it("a published value its publisher's schema refuses stops there: the subscriber renders nothing", () => {
    const repo = repository('', ['my_check', 3]);
    const expectedFile = join(repo, 'ci/tests/basic/expected/checks.txt');
    for (const args of [['test'], ['test', '--update']]) {
      const r = cli(repo, ...args);
      expect(r.code).toBe(1);
      // One error, at the publisher's value, naming the publisher's schema; not the subscriber's EPP
      // parameter type `Array[String]` failing again on the same value.
      const errors = r.stderr.split('\n').filter((l) => / error: /.test(l));
      expect(errors).toEqual([
        "publisher/template.json:1:179: error: shared setting 'ci_checks[1]' must be a string, by the schema template 'publisher' publishes it with [SETTINGS_INVALID]",
      ]);
      expect(r.stderr).toContain('hint: fix the value here (or the schema, publisher/template.json:1:116)');
      expect(r.stderr).not.toContain('EPP_TYPE_MISMATCH');
      expect(r.stdout).toContain('FAIL ci/basic');
      // Nothing written: --update keeps the expected output as it was.
      expect(readFileSync(expectedFile, 'utf8')).toBe('check: my_check\n');
    }
  });
});
