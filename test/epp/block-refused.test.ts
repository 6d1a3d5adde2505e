/**
 * A block given to a function that takes none: Puppet's dispatcher judges the arguments first, so a call
 * wrong in both ways reports its arguments, and only a call whose arguments fit says `does not expect a
 * block`. Judging the arguments must not run what the function does (Puppet never runs it): nothing is
 * logged, and a function a program defines is not called at all. Expected: `puppet epp render` (Puppet
 * 7.23), session 34; the conformance cases `error_block_refused_*` hold the first lines against Puppet.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defineFunction, EppError, type RenderOptions, renderEpp } from '../../src/epp/index.js';

function failure(template: string, options: RenderOptions = {}): { message: string; at: string } {
  try {
    renderEpp(template, {}, { file: 't.epp', ...options });
  } catch (e) {
    if (!(e instanceof EppError)) throw e;
    return { message: e.message, at: `${e.line}:${e.column}` };
  }
  throw new Error(`rendered: ${template}`);
}

const CALL = 'Error while evaluating a Function Call, ';

describe('a block given to a function that takes none', () => {
  it('reports wrong arguments first, in the words of the dispatcher', () => {
    expect(failure('<%= upcase(true) |$x| { $x } %>')).toEqual({
      message: `${CALL}'upcase' parameter 'arg' expects a value of type Numeric, String, Array, or Hash, got Boolean`,
      at: '1:5',
    });
    // compare's argument_mismatch handlers take no block: Puppet describes its dispatches instead.
    expect(failure('<%= compare(1, true) |$x| { $x } %>').message).toBe(
      `${CALL}The function 'compare' was called with arguments it does not accept. It expects one of:
  (Numeric a, Numeric b)
    rejected: parameter 'b' expects a Numeric value, got Boolean
  (String a, String b, Boolean ignore_case?)
    rejected: parameter 'a' expects a String value, got Integer
  (SemVer a, SemVer b)
    rejected: parameter 'a' expects a SemVer value, got Integer
  (Numeric a, Variant[Timespan, Timestamp] b)
    rejected: parameter 'b' expects a value of type Timespan or Timestamp, got Boolean
  (Timestamp a, Variant[Timestamp, Numeric] b)
    rejected: parameter 'a' expects a Timestamp value, got Integer
  (Timespan a, Variant[Timespan, Numeric] b)
    rejected: parameter 'a' expects a Timespan value, got Integer`,
    );
    expect(failure('<%= compare(true, 1) |$x| { $x } %>').message).toBe(
      `${CALL}'compare' parameter 'a' expects a value of type Numeric, String, SemVer, Timestamp, or Timespan, got Boolean`,
    );
  });

  it('refuses the block when the arguments fit, without running the function', () => {
    const logged: string[] = [];
    const onLog = (_level: string, message: string) => logged.push(message);
    expect(failure("<%= notice('seen') |$x| { $x } %>", { onLog })).toEqual({
      message: `${CALL}'notice' does not expect a block`,
      at: '1:5',
    });
    expect(failure("<%= upcase('a') |$x| { $x } %>").message).toBe(`${CALL}'upcase' does not expect a block`);
    expect(logged).toEqual([]);
  });

  it('never calls a function the program defines to find out', () => {
    let calls = 0;
    const functions = [defineFunction('tally', 0, 1, () => ++calls)];
    expect(failure('<%= tally(true) |$x| { $x } %>', { functions }).message).toBe(
      `${CALL}'tally' does not expect a block`,
    );
    expect(calls).toBe(0);
  });

  it("judges a module's Puppet function by its parameter types, without running its body", () => {
    const root = mkdtempSync(join(tmpdir(), 'pantograph-block-refused-'));
    mkdirSync(join(root, 'demo', 'functions'), { recursive: true });
    writeFileSync(
      join(root, 'demo', 'functions', 'twice.pp'),
      'function demo::twice(Integer $x) >> Integer {\n  notice("ran")\n  $x * 2\n}\n',
    );
    const logged: string[] = [];
    const options: RenderOptions = { modulePath: [root], onLog: (_l, message) => logged.push(message) };
    expect(failure("<%= demo::twice('a') |$x| { $x } %>", options)).toEqual({
      message: `${CALL}'demo::twice' parameter 'x' expects an Integer value, got String`,
      at: '1:5',
    });
    expect(failure('<%= demo::twice(2) |$x| { $x } %>', options).message).toBe(
      `${CALL}'demo::twice' does not expect a block`,
    );
    expect(logged).toEqual([]);
    expect(renderEpp('<%= demo::twice(2) %>', {}, options)).toBe('4');
    expect(logged).toEqual(['ran']);
  });
});
