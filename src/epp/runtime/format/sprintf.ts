/**
 * Ruby's Kernel#format: `sprintf` parses the directives, takes their arguments and dispatches them.
 */

import { characterCount, firstCharacters } from '../characters.js';
import { MAX_STRING_LENGTH, textTooLong } from '../size-limits.js';
import type { Value } from '../values.js';
import { rubyInspect, rubyToS } from './inspect.js';
import { toRubyArgs, toRubyInteger } from './ruby-args.js';
import { formatFloatSpec, formatInteger } from './sprintf-numbers.js';
import { formatError, MAX_PRECISION, MAX_WIDTH, pad, type RubyArg, type Spec } from './sprintf-spec.js';

function formatString(spec: Spec, text: string): string {
  const s = spec.prec === undefined ? text : firstCharacters(text, spec.prec);
  return pad({ ...spec, zero: false }, '', s, false);
}

function formatChar(spec: Spec, arg: RubyArg): string {
  let ch: string;
  if (typeof arg === 'string') {
    if (characterCount(arg) !== 1) throw formatError('%c requires a character');
    ch = arg;
  } else {
    const code = toRubyInteger(arg);
    if (code < 0 || code > 0x10ffff) throw formatError(`${code} out of char range`);
    ch = String.fromCodePoint(Number(code));
  }
  return pad({ ...spec, zero: false }, '', ch, false);
}

function formatDirective(spec: Spec, arg: RubyArg): string {
  switch (spec.conv) {
    case 'd':
    case 'i':
    case 'u':
    case 'x':
    case 'X':
    case 'o':
    case 'b':
    case 'B':
      return formatInteger(spec, arg);
    case 'f':
    case 'e':
    case 'E':
    case 'g':
    case 'G':
    case 'a':
    case 'A':
      return formatFloatSpec(spec, arg);
    case 's':
      return formatString(spec, rubyToS(arg));
    case 'p':
      return formatString(spec, rubyInspect(arg));
    case 'c':
      return formatChar(spec, arg);
    default:
      throw formatError(`malformed format string - %${spec.conv}`);
  }
}

/** Where directives take their arguments from: in order, by position (`%1$s`) or by name (`%<a>s`). */
class ArgSource {
  private next = 0;
  constructor(private readonly args: readonly RubyArg[]) {}

  take(): RubyArg {
    if (this.next >= this.args.length) throw formatError('too few arguments');
    return this.args[this.next++];
  }

  at(position: number): RubyArg {
    if (position < 1 || position > this.args.length) throw formatError('too few arguments');
    return this.args[position - 1];
  }

  named(name: string): RubyArg {
    const hash = this.args[0];
    if (this.args.length !== 1 || !(hash instanceof Map)) throw formatError('one hash required');
    if (!hash.has(name)) throw formatError(`key<${name}> not found`);
    return hash.get(name);
  }
}

function checkLimits(spec: Spec): Spec {
  if ((spec.width ?? 0) > MAX_WIDTH) throw formatError('width too big');
  if ((spec.prec ?? 0) > MAX_PRECISION) throw formatError('prec too big');
  return spec;
}

/** One directive: what it prints and the index just after it in the format. */
interface Directive {
  readonly text: string;
  readonly end: number;
}

/** Parses and formats the directive whose `%` is just before `start`. */
function directive(format: string, start: number, args: ArgSource): Directive {
  const spec: Spec = {
    minus: false,
    plus: false,
    space: false,
    zero: false,
    alt: false,
    width: undefined,
    prec: undefined,
    conv: '',
  };
  let arg: { value: RubyArg } | undefined;
  let i = start;
  for (; i < format.length && !spec.conv; i++) {
    const c = format[i]!;
    if (c === '-') spec.minus = true;
    else if (c === '+') spec.plus = true;
    else if (c === ' ') spec.space = true;
    else if (c === '0') spec.zero = true;
    else if (c === '#') spec.alt = true;
    else if (c === '<' || c === '{') {
      const close = format.indexOf(c === '<' ? '>' : '}', i);
      if (close < 0) throw formatError('malformed name - unmatched parenthesis');
      const value = args.named(format.slice(i + 1, close));
      // `%{name}` is complete here and prints the value's to_s; `%<name>` goes on to its conversion.
      if (c === '{') return { text: formatString(checkLimits(spec), rubyToS(value)), end: close + 1 };
      arg = { value };
      i = close;
    } else if (c === '*') {
      const w = toRubyInteger(args.take());
      if (w < 0) spec.minus = true;
      spec.width = Math.abs(Number(w));
    } else if (c >= '1' && c <= '9') {
      const digits = /^\d+/.exec(format.slice(i))![0];
      if (format[i + digits.length] === '$') {
        arg = { value: args.at(Number(digits)) };
        i += digits.length;
      } else {
        spec.width = Number(digits);
        i += digits.length - 1;
      }
    } else if (c === '.') {
      if (format[i + 1] === '*') {
        spec.prec = Math.max(Number(toRubyInteger(args.take())), 0);
        i++;
      } else {
        const digits = /^\d*/.exec(format.slice(i + 1))![0];
        spec.prec = digits === '' ? 0 : Number(digits);
        i += digits.length;
      }
    } else {
      spec.conv = c;
    }
  }
  if (!spec.conv) throw formatError('malformed format string - %');
  checkLimits(spec);
  // `%%` is handled before; a `%` after flags or a width (`%-%`, `%5%`) is Ruby's error.
  if (spec.conv === '%') throw formatError('invalid format character - %');
  if (!'diuxXobBfeEgGaAspc'.includes(spec.conv)) throw formatError(`malformed format string - %${spec.conv}`);
  return { text: formatDirective(spec, arg ? arg.value : args.take()), end: i };
}

/**
 * `sprintf(format, *args)`: Ruby's `Kernel#format` over Puppet values (`%s %d %i %f %e %g %a %x %o %b %c %p %%`,
 * flags `-+ 0#`, width, precision, `*`, `%1$s`, and `%<name>s` / `%{name}` with a hash argument).
 */
export function sprintf(format: string, args: readonly Value[]): string {
  const source = new ArgSource(toRubyArgs(args));
  let out = '';
  let i = 0;
  while (i < format.length) {
    const pct = format.indexOf('%', i);
    if (pct < 0) return out + format.slice(i);
    out += format.slice(i, pct);
    if (pct + 1 >= format.length) throw formatError('incomplete format specifier; use %% (double %) instead');
    if (format[pct + 1] === '%') {
      out += '%';
      i = pct + 2;
      continue;
    }
    const d = directive(format, pct + 1, source);
    out += d.text;
    // Each directive may be a million characters wide: the text is bounded as it grows.
    if (out.length > MAX_STRING_LENGTH) throw textTooLong('the text of sprintf()');
    i = d.end;
  }
  return out;
}
