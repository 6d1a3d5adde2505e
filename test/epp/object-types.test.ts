/**
 * `Object[{...}]` with attributes: Puppet makes values of such a type (`Point({'x' => 1})`), Pantograph has
 * no Object values, so it refuses the type where it is written, with a way out (docs/decisions.md, "SemVer
 * and SemVerRange values", the limits recorded there). A bare `Object` stays a type (`Object[{}]`).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EppError, renderEpp } from '../../src/epp/index.js';

const TEMPLATE =
  "a\n<% $p = Object[{name => 'Point', attributes => {x => Integer, y => Integer}}] %><%= $p.new(1, 2) %>\n";

describe('Object types with attributes', () => {
  it('are refused where written, with the code, the position and what to do instead', () => {
    let error: unknown;
    try {
      renderEpp(TEMPLATE, {}, { file: 't.epp' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(EppError);
    const e = error as EppError;
    expect(e.code).toBe('EPP_UNSUPPORTED');
    expect(e.where).toBe('t.epp:2:9');
    expect(e.message).toBe('Object types with attributes are not supported in templates');
    expect(e.hint).toContain('Struct[{x => Integer, y => Integer}]');
  });

  it('keep a bare Object a type', () => {
    expect(renderEpp('<%= Object %>', {}, { file: 't.epp' })).toBe('Object[{}]');
  });

  it('make the CLI exit 1 with the error on stderr and nothing on stdout or on disk', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pantograph-object-'));
    writeFileSync(join(dir, 'point.epp'), TEMPLATE);
    const bin = join(import.meta.dirname, '../../dist/cli/bin.cjs');
    let status = 0;
    let stdout = '';
    let stderr = '';
    try {
      execFileSync(process.execPath, [bin, 'epp', 'render', 'point.epp'], { cwd: dir, encoding: 'utf8' });
    } catch (e) {
      const failed = e as { status: number; stdout: string; stderr: string };
      [status, stdout, stderr] = [failed.status, failed.stdout, failed.stderr];
    }
    expect(status).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toContain(
      'point.epp:2:9: error: Object types with attributes are not supported in templates',
    );
    expect(stderr).toContain('hint: Pantograph has no Object values');
    expect(readdirSync(dir)).toEqual(['point.epp']);
  });
});
