/**
 * The operators and the matching of a render's Runtime (`rt.add`, `rt.lt`, `rt.match`, `case` options):
 * what the generated code calls for an operator, with the native fast paths for two Integers, Puppet's
 * warning for a string taken as a number, and the match captures a successful regexp match sets. The
 * Runtime (runtime.ts) extends this class; its state is runtime-base.ts's, its parameters
 * parameter-runtime.ts's.
 */
import { compareForOperator, compareIgnoreCase, hashLookup, puppetEquals, typesEqual } from './compare.js';
import { rubyDowncase } from './format/ruby-strings.js';
import { renderValue } from './format.js';
import { arithmetic, matchNotRegexp, matchNotString, negate, OperandError, splat } from './operators.js';
import { ParameterRuntime } from './parameter-runtime.js';
import { PSemVer, PSemVerRange, VersionSyntaxError } from './semver.js';
import { InitTypeError, PType } from './types.js';
import { DEFAULT, isHash, isNumeric, PRegexp, PTimeData, type Value } from './values.js';

export abstract class OperatorRuntime extends ParameterRuntime {
  arithmetic(op: string, a: Value, b: Value, p: number): Value {
    let result: Value;
    try {
      result = arithmetic(op, a, b);
    } catch (e) {
      throw this.operatorError(e, op, p);
    }
    // A string taken as a number (`'1' + 1`) is worth Puppet's warning, at the operand as Puppet places
    // it; `[1] + '1'` took it as an element.
    if (
      (typeof a === 'string' || typeof b === 'string') &&
      (isNumeric(result) || result instanceof PTimeData)
    ) {
      this.warnIfNumericString(a, p, 'left');
      this.warnIfNumericString(b, p, 'right');
    }
    return result;
  }

  /**
   * Places an operator's error: an `OperandError` at its operand as Puppet places it, or at the operator
   * worded as the expression's (`Error while evaluating a '+' expression, `); any other at the operator.
   */
  protected operatorError(e: unknown, op: string, p: number): unknown {
    if (!(e instanceof OperandError) || e.location) return this.locate(e, p);
    if (e.operand === 'expression') {
      e.message = `Error while evaluating a '${op}' expression, ${e.message}`;
      return this.locate(e, p);
    }
    return e.at(this.operandLocation(p, e.operand));
  }

  negate(v: Value, p: number): Value {
    let result: Value;
    try {
      result = negate(v);
    } catch (e) {
      throw this.locate(e, p);
    }
    // `- '5'`: Puppet warns of the string it took as a number, as for the other arithmetic.
    if (typeof v === 'string') this.warnIfNumericString(v, p);
    return result;
  }

  /** `a + b`; two Integers (numbers) add natively unless the sum leaves the safe range. */
  add(a: Value, b: Value, p: number): Value {
    if (typeof a === 'number' && typeof b === 'number') {
      const r = a + b;
      if (Number.isSafeInteger(r)) return r;
    }
    return this.arithmetic('+', a, b, p);
  }

  sub(a: Value, b: Value, p: number): Value {
    if (typeof a === 'number' && typeof b === 'number') {
      const r = a - b;
      if (Number.isSafeInteger(r)) return r;
    }
    return this.arithmetic('-', a, b, p);
  }

  mul(a: Value, b: Value, p: number): Value {
    if (typeof a === 'number' && typeof b === 'number') {
      const r = a * b;
      // `-0` is no Integer (0 * -1); a product beyond the safe range fails isSafeInteger.
      if (Number.isSafeInteger(r)) return r === 0 ? 0 : r;
    }
    return this.arithmetic('*', a, b, p);
  }

  /** `a == b` (a type on the left asks the type calculator: see `typesEqual`). */
  equals(a: Value, b: Value): boolean {
    return a instanceof PType ? typesEqual(a, b) : puppetEquals(a, b);
  }

  /** `a == 'literal'`: strings compare ignoring ASCII case (which keeps lengths), other values never match. */
  eqs(a: Value, b: string): boolean {
    return a === b || (typeof a === 'string' && a.length === b.length && compareIgnoreCase(a, b) === 0);
  }

  // `<`, `<=`, `>`, `>=`: two Integers (numbers) compare natively.
  lt(a: Value, b: Value, p: number): boolean {
    return typeof a === 'number' && typeof b === 'number' ? a < b : this.compare(a, b, '<', p) < 0;
  }

  le(a: Value, b: Value, p: number): boolean {
    return typeof a === 'number' && typeof b === 'number' ? a <= b : this.compare(a, b, '<=', p) <= 0;
  }

  gt(a: Value, b: Value, p: number): boolean {
    return typeof a === 'number' && typeof b === 'number' ? a > b : this.compare(a, b, '>', p) > 0;
  }

  ge(a: Value, b: Value, p: number): boolean {
    return typeof a === 'number' && typeof b === 'number' ? a >= b : this.compare(a, b, '>=', p) >= 0;
  }

  compare(a: Value, b: Value, op: string, p: number): number {
    try {
      return compareForOperator(a, b, op);
    } catch (e) {
      throw this.locate(e, p);
    }
  }

  /** `a =~ b`: b a Regexp, a regexp string, or a Type. A successful regexp match sets `$0..$n`. */
  match(a: Value, b: Value, p: number): boolean {
    if (b instanceof PType) {
      try {
        return b.isInstance(a);
      } catch (e) {
        // An Init type Puppet cannot make values of fails where it is first matched, as the '=~''s error.
        if (e instanceof InitTypeError) e.message = `Error while evaluating a '=~' expression, ${e.message}`;
        throw this.locate(e, p);
      }
    }
    // A version range matches the versions it includes, and a text that reads as one (Puppet's
    // `PSemVerRangeType.include?`): anything else is no match.
    if (b instanceof PSemVerRange) return versionMatches(b, a);
    let re: PRegexp;
    if (b instanceof PRegexp) re = b;
    else if (typeof b === 'string') re = this.regexp(b, p);
    else throw this.operatorError(matchNotRegexp(b), '=~', p);
    if (typeof a !== 'string') throw this.operatorError(matchNotString(a), '=~', p);
    return this.regexMatch(re, a);
  }

  private regexMatch(re: PRegexp, s: string): boolean {
    re.regex.lastIndex = 0;
    const found = re.regex.exec(s);
    if (!found) return false;
    this.m = [...found];
    return true;
  }

  /**
   * `a in b`: substring (case-insensitive), array element, hash key, version in a range; a regexp or type
   * left matches.
   */
  isIn(a: Value, b: Value): boolean {
    if (typeof b === 'string') {
      if (a instanceof PRegexp) return this.regexMatch(a, b);
      if (typeof a !== 'string') return false;
      return rubyDowncase(b).includes(rubyDowncase(a));
    }
    // A version range holds the versions it includes, a text read as a version (Puppet's
    // `include_VersionRange`).
    if (b instanceof PSemVerRange)
      return (typeof a === 'string' || a instanceof PSemVer) && versionMatches(b, a);
    const candidates = Array.isArray(b) ? b : isHash(b) ? [...b.keys()] : undefined;
    // Nothing is in any other value (an Integer, a Boolean, a type, undef): Puppet answers false.
    if (!candidates) return false;
    if (a instanceof PRegexp) return candidates.some((c) => typeof c === 'string' && this.regexMatch(a, c));
    if (a instanceof PType) return candidates.some((c) => a.isInstance(c));
    // A text or version is matched by each element as a `case` option would match it (Puppet's
    // `include_Array` calls its `match`): a regexp element matches a text and sets `$0`, `$1`, ... (`'abc' in
    // [/b/]`), a type takes its instances, a version element a text that reads as it (`'1.2.3' in
    // [SemVer('1.2.3')]`), a range the versions in it.
    if (typeof a === 'string' || a instanceof PSemVer) {
      return candidates.some((c) => this.matchesOption(a, c, 0));
    }
    return candidates.some((c) => puppetEquals(a, c));
  }

  /** Whether a `case` / selector option matches the tested value. */
  matchesOption(value: Value, option: Value, p: number): boolean {
    if (option === DEFAULT) return true;
    if (option instanceof PRegexp) return typeof value === 'string' && this.regexMatch(option, value);
    if (option instanceof PType) return option.isInstance(value);
    if (isVersionPattern(option)) return versionMatches(option, value);
    if (Array.isArray(option)) {
      return (
        Array.isArray(value) &&
        option.length === value.length &&
        option.every((o, i) => this.matchesOption(value[i], o, p))
      );
    }
    // A hash option matches a hash holding each of its keys (exactly, as Ruby's Hash#[] finds them) with a
    // value matching the option's; a key the value lacks is matched as undef (`Optional[...]` matches it).
    if (isHash(option)) {
      if (!isHash(value)) return false;
      for (const [key, pattern] of option) {
        if (!this.matchesOption(hashLookup(value, key).value, pattern, p)) return false;
      }
      return true;
    }
    return puppetEquals(value, option);
  }

  /** A splatted option `*[a, b]`: matches when any element does. */
  matchesAny(value: Value, options: Value, p: number): boolean {
    return splat(options).some((o) => this.matchesOption(value, o, p));
  }

  noSelectorMatch(value: Value, p: number): never {
    return this.fail(
      'EPP_NO_MATCH',
      `No matching entry for selector parameter with value '${renderValue(value)}'`,
      p,
    );
  }
}

function isVersionPattern(v: Value): v is PSemVer | PSemVerRange {
  return v instanceof PSemVer || v instanceof PSemVerRange;
}

/**
 * Puppet's `match_Version` and `match_VersionRange`: a version matches itself, a range the versions it
 * includes; a text is read as a version first (one that is none matches nothing).
 */
function versionMatches(pattern: PSemVer | PSemVerRange, v: Value): boolean {
  let version: PSemVer;
  if (v instanceof PSemVer) version = v;
  else if (typeof v !== 'string') return false;
  else {
    try {
      version = PSemVer.parse(v);
    } catch (e) {
      if (e instanceof VersionSyntaxError) return false;
      throw e;
    }
  }
  return pattern instanceof PSemVer ? pattern === version : pattern.includes(version);
}
