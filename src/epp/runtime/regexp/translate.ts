/**
 * Puppet's regular expressions are Ruby's (Onigmo); Pantograph runs them as JavaScript RegExps with the
 * `v` flag, translated here one token at a time so that each means what it means to Puppet:
 * - `.` is any code point but `\n` (an emoji is one character; `\r` is matched), `^` and `$` are Ruby's
 *   line anchors (`^` after every `\n` but one that ends the text), `\A`, `\z`, `\Z`;
 * - `\s` and `\h` are ASCII, `\b` and POSIX brackets and `\p{...}` are Unicode, as Onigmo's are;
 * - nested classes and `&&` intersections, `(?imx-imx)` and `(?imx-imx:...)` anywhere, `(?#...)`
 *   comments, `(?'name'...)`, `\K` at the top level, a `{` that is no interval as a literal;
 * - with named groups, plain parentheses do not capture (Ruby numbers only the named ones).
 * What JavaScript has no way to say (possessive quantifiers, atomic groups, subexpression calls, absent
 * and conditional groups, `\X`, Unicode blocks) is refused by name rather than run with another meaning.
 * Each was compared with `puppet epp render` (test/fixtures/puppet-messages/regexps.json).
 */
import { caselessLiteral, literal } from './characters.js';
import { readClass, readProperty, SET_ESCAPES } from './classes.js';
import { PatternScanner, RegexpSyntaxError } from './scanner.js';

export { RegexpSyntaxError } from './scanner.js';

/** Ruby's options of a part of a pattern: `i` ignore case, `m` dot matches newline, `x` extended. */
interface Options {
  i: boolean;
  m: boolean;
  x: boolean;
}

/** A word character to Onigmo's `\b` (Unicode: `é` is one), where JavaScript's `\b` is ASCII. */
const WORD = '[\\p{Alphabetic}\\p{M}\\p{Nd}\\p{Pc}]';
const ANCHORS: Readonly<Record<string, string>> = {
  A: '(?<![\\s\\S])',
  z: '(?![\\s\\S])',
  Z: '(?=\\n?(?![\\s\\S]))',
  // Onigmo's `\G` is where this search started; JavaScript has no such anchor. Its first search starts at
  // the start, which is what a template's `=~` and `match` do; a pattern that begins with `\G` searches
  // again (regsubst's `G`, split) with JavaScript's sticky flag (see `searchingRegExp`).
  G: '(?<![\\s\\S])',
  b: `(?:(?<=${WORD})(?!${WORD})|(?<!${WORD})(?=${WORD}))`,
  B: `(?:(?<=${WORD})(?=${WORD})|(?<!${WORD})(?!${WORD}))`,
  R: '(?:\\r\\n|[\\n\\v\\f\\r\\u{85}\\u{2028}\\u{2029}])',
};
/** Ruby's `^`: at the start, or after a `\n` that does not end the text. */
const LINE_START = '(?:(?<![\\s\\S])|(?<=\\n)(?=[\\s\\S]))';
const LINE_END = '(?![^\\n])';
const UNSUPPORTED_ESCAPES: Readonly<Record<string, string>> = {
  X: 'extended grapheme clusters (\\X)',
  g: 'subexpression calls (\\g<...>)',
  M: 'meta characters (\\M-x)',
  O: '\\O escapes',
  N: '\\N escapes',
  y: 'text segment boundaries (\\y)',
  Y: 'text segment boundaries (\\Y)',
};

/**
 * Turns a Puppet (Ruby) regexp source into a JavaScript RegExp. `rubyOptions` are Ruby's letters for the
 * whole pattern (`i`, `m`, `x`: regsubst's `I`, `M`, `E`). Throws {@link RegexpSyntaxError}.
 */
export function toJsRegExp(source: string, rubyOptions = ''): RegExp {
  const translation = new Translator(source, rubyOptions).translate();
  try {
    const re = new RegExp(translation.source, translation.flags);
    if (translation.stickySource !== undefined) stickySources.set(re, translation.stickySource);
    return re;
  } catch (e) {
    throw new RegexpSyntaxError(
      (e as Error).message.replace(/^Invalid regular expression: \/.*\/[a-z]*: /, ''),
      0,
    );
  }
}

/** The source without its leading `\G`, of a regexp whose every match starts with it (see `searchingRegExp`). */
const stickySources = new WeakMap<RegExp, string>();

/**
 * The global RegExp that searches `re` again and again from `lastIndex` (regsubst's `G`, split). Onigmo's
 * `\G` is where each search starts, which for a pattern that begins with it is JavaScript's sticky flag:
 * `regsubst('aaa', /\Ga/, '_', 'G')` is `___`. Left: a `\G` elsewhere (after `|`, in a group, after `\K`)
 * stays the start of the text.
 */
export function searchingRegExp(re: RegExp): RegExp {
  const sticky = stickySources.get(re);
  if (sticky !== undefined) return new RegExp(sticky, `${re.flags.replace(/[gy]/g, '')}gy`);
  return new RegExp(re.source, re.flags.includes('g') ? re.flags : `${re.flags}g`);
}

interface Group {
  /** The options outside the group, back in force at its end. */
  readonly outer: Options;
  /** Where the group starts in the output: a quantifier after it repeats all from there. */
  readonly start: number;
}

class Translator {
  private readonly scanner: PatternScanner;
  private options: Options;
  /** Ignoring case everywhere, the JavaScript `i` flag says it; else each caseless letter is written `[kK]`. */
  private readonly jsIgnoreCase: boolean;
  private readonly captures: number;
  private readonly named: boolean;
  private readonly groups: Group[] = [];
  private out = '';
  /** Where in `out` the last atom starts (a quantifier applies to it); -1: no atom to repeat. */
  private atomStart = -1;
  /** What came last: an atom, a quantifier (greedy or not), or nothing repeatable. */
  private last: 'atom' | 'greedy' | 'quantified' | 'none' = 'none';
  private keepAt = -1;
  private topAlternation = false;
  /** The pattern starts with `\G` (nothing before it at the top level). */
  private leadingSearchStart = false;

  constructor(source: string, rubyOptions: string) {
    this.scanner = new PatternScanner(source);
    this.options = {
      i: rubyOptions.includes('i'),
      m: rubyOptions.includes('m'),
      x: rubyOptions.includes('x'),
    };
    // Case ignored from the start to the end (`(?i)` first, or regsubst's `I`) is JavaScript's `i` flag.
    const leadingIgnoreCase = /^\(\?[mx]*i[imx]*\)/.test(source);
    const turnedOff = /\(\?[imx]*-[mx]*i/.test(source);
    this.jsIgnoreCase = (this.options.i || leadingIgnoreCase) && !turnedOff;
    ({ captures: this.captures, named: this.named } = countGroups(source));
  }

  translate(): { source: string; flags: string; stickySource?: string } {
    const s = this.scanner;
    while (!s.done) this.token();
    if (this.groups.length > 0) throw s.error('end pattern with unmatched parenthesis');
    let source = this.out;
    if (this.keepAt >= 0) {
      if (this.topAlternation)
        throw s.unsupported('\\K is not supported in a pattern with a | at its top level', 0);
      source = `(?<=${source.slice(0, this.keepAt)})${source.slice(this.keepAt)}`;
    }
    const flags = this.jsIgnoreCase ? 'iv' : 'v';
    const g = ANCHORS.G!;
    if (
      this.leadingSearchStart &&
      !this.topAlternation &&
      this.keepAt < 0 &&
      source.startsWith(g) &&
      !/^[*+?{]/.test(source.slice(g.length))
    ) {
      return { source, flags, stickySource: source.slice(g.length) };
    }
    return { source, flags };
  }

  private get caseless(): boolean {
    return this.options.i && !this.jsIgnoreCase;
  }

  private token(): void {
    const s = this.scanner;
    const c = s.src[s.i]!;
    if (this.options.x && /\s/.test(c)) {
      s.i++;
      return;
    }
    if (this.options.x && c === '#') {
      const newline = s.src.indexOf('\n', s.i);
      s.i = newline < 0 ? s.src.length : newline;
      return;
    }
    switch (c) {
      case '\\':
        this.escape();
        return;
      case '[':
        this.atom(readClass(s, { caseless: this.caseless, captures: this.captures }));
        return;
      case '(':
        this.openGroup();
        return;
      case ')':
        this.closeGroup();
        return;
      case '.':
        s.i++;
        this.atom(this.options.m ? '[\\s\\S]' : '[^\\n]');
        return;
      case '^':
        s.i++;
        this.assertion(LINE_START);
        return;
      case '$':
        s.i++;
        this.assertion(LINE_END);
        return;
      case '|':
        s.i++;
        if (this.groups.length === 0) this.topAlternation = true;
        this.assertion('|');
        return;
      case '*':
      case '+':
      case '?':
        this.quantifier(c, 1);
        return;
      case '{': {
        const interval = /^\{(\d*)(,(\d*))?\}/.exec(s.src.slice(s.i));
        if (interval && (interval[1] !== '' || (interval[2] !== undefined && interval[3] !== ''))) {
          // Onigmo's own words, where JavaScript's RegExp says "numbers out of order in {} quantifier".
          if (interval[1] !== '' && interval[3] && Number(interval[1]) > Number(interval[3])) {
            throw s.error('upper is smaller than lower in repeat range', s.i);
          }
          this.quantifier(interval[0].replace('{,', '{0,'), interval[0].length);
          return;
        }
        s.i++;
        this.atom(literal(0x7b));
        return;
      }
      default: {
        const cp = s.next();
        this.atom(this.caseless ? caselessLiteral(cp) : literal(cp));
        return;
      }
    }
  }

  private atom(js: string): void {
    this.atomStart = this.out.length;
    this.out += js;
    this.last = 'atom';
  }

  /** Something no quantifier may follow: an anchor, a `|`, a group's start. */
  private assertion(js: string): void {
    this.out += js;
    this.atomStart = -1;
    this.last = 'none';
  }

  /** A quantifier `q`, `length` characters of the source. */
  private quantifier(q: string, length: number): void {
    const s = this.scanner;
    const start = s.i;
    s.i += length;
    if (this.last === 'greedy' && q === '?') {
      // `*?`: lazy.
      this.out += q;
      this.last = 'quantified';
      return;
    }
    if (this.last === 'greedy' && q === '+' && !this.out.endsWith('}'))
      throw s.unsupported('possessive quantifiers (*+, ++, ?+) are not supported', start);
    if (this.atomStart < 0) throw s.error('target of repeat operator is not specified', start);
    if (this.last !== 'atom') {
      // Onigmo repeats a repeat (`a{2}+` is `(?:a{2})+`); JavaScript needs the group.
      this.out = `${this.out.slice(0, this.atomStart)}(?:${this.out.slice(this.atomStart)})`;
    }
    this.out += q;
    this.last = 'greedy';
  }

  private escape(): void {
    const s = this.scanner;
    const start = s.i;
    s.i++;
    const cp = s.charEscape(false, this.captures);
    if (cp !== undefined) {
      this.atom(this.caseless ? caselessLiteral(cp) : literal(cp));
      return;
    }
    const letter = s.src[s.i]!;
    const set = SET_ESCAPES[letter];
    if (set !== undefined) {
      s.i++;
      this.atom(set);
      return;
    }
    const anchor = ANCHORS[letter];
    if (anchor !== undefined) {
      s.i++;
      if (letter === 'G' && this.out === '' && this.groups.length === 0) this.leadingSearchStart = true;
      if (letter === 'R') this.atom(anchor);
      else this.assertion(anchor);
      return;
    }
    if (letter === 'p' || letter === 'P') {
      this.atom(readProperty(s, start));
      return;
    }
    if (letter === 'K') {
      s.i++;
      if (this.groups.length > 0) throw s.unsupported('\\K is not supported inside a group', start);
      this.keepAt = this.out.length;
      this.assertion('');
      return;
    }
    if (letter === 'k') {
      this.atom(this.namedBackreference(start));
      return;
    }
    if (/\d/.test(letter)) {
      this.atom(this.backreference(start));
      return;
    }
    const unsupported = UNSUPPORTED_ESCAPES[letter];
    if (unsupported !== undefined) throw s.unsupported(`${unsupported} are not supported`, start);
    // Onigmo takes an escaped letter it does not know as the letter.
    s.i++;
    this.atom(literal(letter.codePointAt(0)!));
  }

  private backreference(start: number): string {
    const s = this.scanner;
    const digits = /^\d+/.exec(s.src.slice(s.i))![0];
    s.i += digits.length;
    if (this.named) throw s.error('numbered backref/call is not allowed. (use name)', start);
    if (Number(digits) > this.captures || Number(digits) === 0)
      throw s.error('invalid backref number/name', start);
    // The empty group keeps a digit after the reference from being read as part of its number.
    return `\\${digits}(?:)`;
  }

  private namedBackreference(start: number): string {
    const s = this.scanner;
    const m = /^k(?:<([^>]*)>|'([^']*)')/.exec(s.src.slice(s.i));
    if (!m) throw s.error('invalid backref number/name', start);
    s.i += m[0].length;
    const name = m[1] ?? m[2]!;
    if (/^\d+$/.test(name)) return `\\${name}(?:)`;
    return `\\k<${name}>`;
  }

  private openGroup(): void {
    const s = this.scanner;
    const start = s.i;
    const rest = s.src.slice(s.i);
    const outer = { ...this.options };
    if (rest.startsWith('(?#')) {
      const end = s.src.indexOf(')', s.i);
      if (end < 0) throw s.error('end pattern in group', start);
      s.i = end + 1;
      return;
    }
    const inline = /^\(\?([imx]*)(?:-([imx]*))?(\)|:)/.exec(rest);
    if (inline && (inline[1] !== '' || inline[2] !== undefined)) {
      s.i += inline[0].length;
      const options = { ...this.options };
      for (const o of inline[1]!) options[o as keyof Options] = true;
      for (const o of inline[2] ?? '') options[o as keyof Options] = false;
      if (inline[3] === ')') {
        // `(?i)`: from here to the end of the enclosing group.
        this.options = options;
        return;
      }
      this.groups.push({ outer, start: this.out.length });
      this.options = options;
      this.assertion('(?:');
      return;
    }
    const plain = /^\((?:\?(:|=|!|<=|<!|<([A-Za-z_]\w*)>|'([A-Za-z_]\w*)'))?/.exec(rest)!;
    if (plain[0] === '(' && rest.startsWith('(?')) {
      const what = rest.startsWith('(?>')
        ? 'atomic groups (?>...)'
        : rest.startsWith('(?~')
          ? 'absent operators (?~...)'
          : rest.startsWith('(?(')
            ? 'conditional groups (?(...)...)'
            : undefined;
      throw what
        ? s.unsupported(`${what} are not supported`, start)
        : s.error('undefined group option', start);
    }
    s.i += plain[0].length;
    this.groups.push({ outer, start: this.out.length });
    const name = plain[2] ?? plain[3];
    if (name !== undefined) {
      this.assertion(`(?<${name}>`);
      return;
    }
    if (plain[1] !== undefined) {
      this.assertion(`(?${plain[1]}`);
      return;
    }
    this.assertion(this.named ? '(?:' : '(');
  }

  private closeGroup(): void {
    const s = this.scanner;
    const group = this.groups.pop();
    if (!group) throw s.error('unmatched close parenthesis');
    s.i++;
    this.options = group.outer;
    this.out += ')';
    // The whole group is the atom a quantifier after it repeats.
    this.atomStart = group.start;
    this.last = 'atom';
  }
}

/** How many groups capture (named, or plain when there are none named), and whether any is named. */
function countGroups(source: string): { captures: number; named: boolean } {
  let plain = 0;
  let named = 0;
  let classDepth = 0;
  for (let k = 0; k < source.length; k++) {
    const c = source[k];
    if (c === '\\') k++;
    else if (c === '[') classDepth++;
    else if (c === ']' && classDepth > 0) classDepth--;
    else if (c === '(' && classDepth === 0) {
      if (source[k + 1] !== '?') plain++;
      else if (/^\(\?(<[A-Za-z_]|'[A-Za-z_])/.test(source.slice(k))) named++;
    }
  }
  return { captures: named > 0 ? named : plain, named: named > 0 };
}
