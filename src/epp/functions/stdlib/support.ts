/**
 * What stdlib's function modules (strings.ts and the files beside it) share: the `name(): ...`
 * errors of 3.x functions, line-anchored matching, the `String or Array` mapping shape, and the deprecated
 * names that call a `stdlib::` function. Ruby's class names and errors are ruby.ts's.
 */
import { EppEvalError } from '../../errors.js';
import { defineFunction, type FunctionDef, invoke } from '../registry.js';

/** A `Puppet::ParseError` of a 3.x function: `name(): message`. */
export function parseError(fn: string, message: string): EppEvalError {
  return new EppEvalError('EPP_ARGUMENTS', `${fn}(): ${message}`);
}

/**
 * Whether one line of `s` matches `anchored` (a `^...$` regexp): Ruby's `^` and `$` match at every line,
 * which the stdlib functions' checks rely on (`str2bool("x\nyes")` is true). No line starts after a
 * final newline.
 */
export function someLineMatches(s: string, anchored: RegExp): boolean {
  const lines = s.split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines.some((line) => anchored.test(line));
}

/** A 3.x function of stdlib's `String or Array` shape: strings mapped, other array elements kept. */
export function stringOrArrayMapper(name: string, f: (s: string) => string): FunctionDef {
  return defineFunction(name, 0, Number.POSITIVE_INFINITY, (_ctx, args) => {
    if (args.length === 0) throw parseError(name, 'Wrong number of arguments given (0 for 1)');
    const [value] = args;
    if (typeof value === 'string') return f(value);
    if (Array.isArray(value)) return value.map((v) => (typeof v === 'string' ? f(v) : v));
    throw parseError(name, 'Requires either array or string to work with');
  });
}

/**
 * A deprecated stdlib name (`type_of`) that takes any arguments and calls its `stdlib::` function with
 * them, which checks them: a wrong count is worded as the `stdlib::` function's, as in Puppet.
 */
export function deprecatedAlias(def: FunctionDef): FunctionDef {
  return defineFunction(def.name.replace(/^stdlib::/, ''), 0, Number.POSITIVE_INFINITY, (ctx, args) =>
    invoke(def, ctx, args, undefined),
  );
}
