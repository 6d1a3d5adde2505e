import { describe, expect, it } from 'vitest';
import { FunctionRegistry } from '../../src/epp/functions/registry.js';
import { stdlibParsingFunctions } from '../../src/epp/functions/stdlib/parsing.js';
import type { Value } from '../../src/epp/runtime/values.js';
import { callFunction, fakeContext } from './helpers.js';

const registry = new FunctionRegistry().add(...stdlibParsingFunctions);

function call(name: string, args: Value[]): Value {
  return callFunction(registry, name, args, undefined, fakeContext());
}

// What Puppet answers is in test/conformance/stdlib-cases (parsejson_*, parsepson_*); these check that
// hostile input gets its answer in time: an unterminated string of escapes made overlapping regular
// expression alternatives backtrack exponentially (2^n steps for n escapes).
describe('stdlib parsers on long malformed input', () => {
  const escapes = `["${'\\"'.repeat(20_000)}`;

  it('parsepson gives the default for an unterminated string of escapes, quickly', () => {
    const start = Date.now();
    expect(call('parsepson', [escapes, 'fallback'])).toBe('fallback');
    expect(Date.now() - start).toBeLessThan(1000);
  });

  it('parsejson gives the default for an unterminated string of escapes, quickly', () => {
    const start = Date.now();
    expect(call('parsejson', [escapes, 'fallback'])).toBe('fallback');
    expect(Date.now() - start).toBeLessThan(1000);
  });

  it('parsejson reads a long string of escapes', () => {
    expect(call('parsejson', [`["${'\\"\\u0041'.repeat(20_000)}"]`])).toEqual(['"A'.repeat(20_000)]);
  });
});
