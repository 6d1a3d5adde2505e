/**
 * `Object[{...}]` with attributes: values made with `new`, read with `$p.x`, matched and printed as Puppet
 * does (the conformance cases `object_type_*` and `error_object_*` hold Puppet's own output); what needs
 * Ruby code behind the type (derived attributes, functions, ...) is refused where the type is written, with
 * the code, the position and what to do (docs/decisions.md, "Object types with attributes").
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EppError, renderEpp } from '../../src/epp/index.js';

const POINT =
  "<% $p = Object[{name => 'Point', attributes => {x => Integer, y => {type => Integer, value => 0}}}] -%>\n";
const BIN = join(import.meta.dirname, '../../dist/cli/bin.cjs');

function errorOf(template: string): EppError {
  try {
    renderEpp(template, {}, { file: 't.epp' });
  } catch (e) {
    expect(e).toBeInstanceOf(EppError);
    return e as EppError;
  }
  throw new Error('the template rendered');
}

/** Runs the built CLI in a fresh folder holding `t.epp`: its status, output and the folder's files after. */
function cli(template: string): { status: number; stdout: string; stderr: string; files: string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'pantograph-object-'));
  writeFileSync(join(dir, 't.epp'), template);
  try {
    const stdout = execFileSync(process.execPath, [BIN, 'epp', 'render', 't.epp'], {
      cwd: dir,
      encoding: 'utf8',
    });
    return { status: 0, stdout, stderr: '', files: readdirSync(dir) };
  } catch (e) {
    const failed = e as { status: number; stdout: string; stderr: string };
    return { status: failed.status, stdout: failed.stdout, stderr: failed.stderr, files: readdirSync(dir) };
  }
}

describe('Object types with attributes', () => {
  it('make values with new, positional or from a hash, printed as Puppet prints them', () => {
    const out = renderEpp(
      `${POINT}<%= $p.new(1, 2) %> <%= $p.new({x => 3}) %> <%= [$p.new(4)] %> <%= $p.new(1, 2).y %> <%= $p.new(1) =~ $p %>`,
      {},
      { file: 't.epp' },
    );
    expect(out).toBe("Point({'x' => 1, 'y' => 2}) Point({'x' => 3}) [Point({'x' => 4})] 2 true");
  });

  it('print the type on its own with its attributes, and by name inside another type', () => {
    expect(renderEpp(`${POINT}<%= $p %> <%= type($p) %>`, {}, { file: 't.epp' })).toBe(
      "Object[{name => 'Point', attributes => {'x' => Integer, 'y' => {type => Integer, value => 0}}}] Type[Point]",
    );
  });

  it('compare by type and attribute values, as hash keys too', () => {
    const out = renderEpp(
      `${POINT}<%= $p.new(1) == $p.new(1, 0) %> <%= {$p.new(1) => 'a', $p.new(1, 0) => 'b'} %>`,
      {},
      { file: 't.epp' },
    );
    expect(out).toBe("true {Point({'x' => 1}) => b}");
  });

  it("refuse a wrong argument with Puppet's message, at the call", () => {
    const e = errorOf(`${POINT}<%= $p.new('a') %>`);
    expect(e.code).toBe('EPP_ARGUMENTS');
    expect(e.where).toBe('t.epp:2:11');
    expect(e.message).toContain("The function 'new_Point' was called with arguments it does not accept.");
    expect(e.message).toContain("rejected: parameter 'x' expects an Integer value, got String");
  });

  it('refuse what needs Ruby code behind the type where it is written, with what to do', () => {
    const e = errorOf(
      "a\n<% $p = Object[{name => 'P', attributes => {x => {type => Integer, kind => derived}}}] %>",
    );
    expect(e.code).toBe('EPP_UNSUPPORTED');
    expect(e.where).toBe('t.epp:2:9');
    expect(e.message).toBe("Object types with attributes of kind 'derived' are not supported in templates");
    expect(e.hint).toContain('Pantograph supports Object types with a name, a parent and attributes');
    const functions = errorOf("<% $p = Object[{name => 'P', functions => {f => Callable}}] %>");
    expect(functions.code).toBe('EPP_UNSUPPORTED');
    expect(functions.message).toBe("Object types with 'functions' are not supported in templates");
  });

  it('keep a bare Object a type', () => {
    expect(renderEpp('<%= Object %>', {}, { file: 't.epp' })).toBe('Object[{}]');
  });

  it('render through the CLI', () => {
    const run = cli(`${POINT}<%= $p.new(1, 2) %>`);
    expect(run.status).toBe(0);
    expect(run.stdout.trimEnd()).toBe("Point({'x' => 1, 'y' => 2})");
  });

  it('make the CLI exit 1 on a refused type, the error on stderr, nothing on stdout or on disk', () => {
    const run = cli(
      "a\n<% $p = Object[{name => 'P', attributes => {x => {type => Integer, kind => derived}}}] %>",
    );
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(
      "t.epp:2:9: error: Object types with attributes of kind 'derived' are not supported in templates",
    );
    expect(run.stderr).toContain('hint: Pantograph supports Object types');
    expect(run.files).toEqual(['t.epp']);
  });
});
