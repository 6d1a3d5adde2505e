/**
 * Whether a text parses as JSON, answered as Puppet 7 answers a heredoc that declares `:json`: with Ruby's
 * JSON parser (the json gem 2.6 Puppet 7 runs on), whose message Puppet quotes. That message names the line
 * of the parser's C source that gave up and the text from where it did (`451: unexpected token at ']'`),
 * so this is that parser's grammar with its points of failure, from its Ragel machines
 * (ext/json/ext/parser/parser.rl of json 2.6.1), checked against Ruby's own on generated texts
 * (test/epp/produced-text.test.ts):
 *
 * - the document: blanks and comments (`/* *\/`, and `//` up to a line break), one value, blanks and
 *   comments; it fails (line 859) where the text stops fitting, or at a value's start when the value fails;
 * - an array fails (line 451) where it stops fitting, or at the start of an element that fails;
 * - an object never reports: it fails as a whole, and what holds it reports at its `{`;
 * - `NaN` (225), `Infinity` (232, from the character before it) and `-Infinity` (249) are refused where they
 *   stand, strings with a lone high surrogate (521) from where their last escape ended, and nesting deeper
 *   than 100 in words of its own.
 *
 * Only the verdict and the message are wanted: no value is built.
 */

/** A failure the parser raises at once (a container that fails quietly returns {@link FAILED} instead). */
class RubyJsonFailure {
  constructor(readonly message: string) {}
}

const FAILED = -1;
const MAX_NESTING = 100;

/** The source lines of json 2.6.1's parser.c that raise, as its messages print them. */
const LINE = { document: 859, array: 451, nan: 225, infinity: 232, minusInfinity: 249, surrogate: 521 };

/** Ruby's JSON.parse message for `text`, or undefined when the text parses. */
export function rubyJsonParseError(text: string): string | undefined {
  try {
    new RubyJsonParser(text).document();
    return undefined;
  } catch (e) {
    if (e instanceof RubyJsonFailure) return e.message;
    throw e;
  }
}

class RubyJsonParser {
  /** Set by {@link ignore} when a comment was begun but not finished: where it broke. */
  private brokenAt = FAILED;

  constructor(private readonly s: string) {}

  document(): void {
    const { s } = this;
    let p = this.ignore(0);
    if (this.brokenAt >= 0 || p === s.length || !beginsValue(s.charCodeAt(p))) this.raise(LINE.document, p);
    const end = this.value(p, 0);
    if (end === FAILED) this.raise(LINE.document, p);
    p = this.ignore(end);
    if (this.brokenAt >= 0 || p !== s.length) this.raise(LINE.document, p);
  }

  /** One value at `p` (a character that begins one): the position after it, or FAILED. */
  private value(p: number, nesting: number): number {
    const { s } = this;
    switch (s[p]) {
      case 'n':
        return this.word(p, 'null');
      case 't':
        return this.word(p, 'true');
      case 'f':
        return this.word(p, 'false');
      case 'N':
        if (this.word(p, 'NaN') !== FAILED) this.raise(LINE.nan, p);
        return FAILED;
      case 'I':
        // The parser quotes from 8 characters before the word's last: the one before the word.
        if (this.word(p, 'Infinity') !== FAILED) this.raise(LINE.infinity, p - 1);
        return FAILED;
      case '"':
        return this.string(p);
      case '[':
        return this.array(p, nesting + 1);
      case '{':
        return this.object(p, nesting + 1);
      default:
        if (s.startsWith('-Infinity', p)) this.raise(LINE.minusInfinity, p);
        return this.number(p);
    }
  }

  private word(p: number, word: string): number {
    return this.s.startsWith(word, p) ? p + word.length : FAILED;
  }

  /** A float if one is there, else an integer; either must not run on into a digit (or `.`, `e`, `-`). */
  private number(p: number): number {
    const { s } = this;
    let i = p;
    if (s[i] === '-') i++;
    if (s[i] === '0') i++;
    else if (isDigit1to9(s.charCodeAt(i))) i = this.digits(i);
    else return FAILED;
    const integerEnd = i;
    let float = false;
    if (s[i] === '.') {
      if (!isDigit(s.charCodeAt(i + 1))) return this.integer(integerEnd);
      i = this.digits(i + 1);
      float = true;
    }
    if (s[i] === 'e' || s[i] === 'E') {
      let j = i + 1;
      if (s[j] === '+' || s[j] === '-') j++;
      if (!isDigit(s.charCodeAt(j))) return this.integer(integerEnd);
      i = this.digits(j);
      float = true;
    }
    if (float && !'0123456789Ee.-'.includes(s[i] ?? '0')) return i;
    if (float && i === s.length) return i;
    return this.integer(integerEnd);
  }

  /** The integer that ends at `end`: it fails when a digit follows it (`01`). */
  private integer(end: number): number {
    return isDigit(this.s.charCodeAt(end)) ? FAILED : end;
  }

  private digits(i: number): number {
    while (isDigit(this.s.charCodeAt(i))) i++;
    return i;
  }

  /** A string at `p`: the position after its closing quote, or FAILED. */
  private string(p: number): number {
    const { s } = this;
    let i = p + 1;
    for (;;) {
      if (i >= s.length) return FAILED;
      const c = s.charCodeAt(i);
      if (c === 0x22) break;
      if (c < 0x20) return FAILED;
      if (c !== 0x5c) {
        i++;
        continue;
      }
      const escaped = s[i + 1];
      if (escaped === undefined || escaped.charCodeAt(0) < 0x20) return FAILED;
      if (escaped === 'u') {
        if (!/^[0-9a-fA-F]{4}$/.test(s.slice(i + 2, i + 6))) return FAILED;
        i += 6;
      } else {
        // Any other escaped character is taken (`\x` is `x`).
        i += 2;
      }
    }
    this.checkSurrogates(p + 1, i);
    return i + 1;
  }

  /**
   * The parser's unescaping refuses a high surrogate escape too near the string's end to be followed by a
   * low one, quoting from where the text after the previous escape begins (json_string_unescape).
   */
  private checkSurrogates(start: number, stringEnd: number): void {
    const { s } = this;
    let runStart = start;
    let pe = start;
    while (pe < stringEnd) {
      if (s[pe] !== '\\') {
        pe++;
        continue;
      }
      pe++;
      const escaped = s[pe];
      if (escaped === 'u') {
        const ch = Number.parseInt(s.slice(pe + 1, pe + 5), 16);
        pe += 4; // its last hex digit
        if ((ch & 0xfc00) === 0xd800) {
          pe++;
          if (pe > stringEnd - 6) this.raise(LINE.surrogate, runStart, 'incomplete surrogate pair');
          if (s[pe] === '\\' && s[pe + 1] === 'u') pe += 5;
        }
      } else if (!'nrt"\\bf'.includes(escaped ?? '')) {
        // Kept as it is (`\x`, `\/`): the text goes on from the escaped character.
        runStart = pe;
        continue;
      }
      runStart = ++pe;
    }
  }

  private array(p: number, nesting: number): number {
    this.checkNesting(nesting);
    const { s } = this;
    let i = this.afterBlanks(p + 1, LINE.array);
    if (s[i] === ']') return i + 1;
    for (;;) {
      if (!beginsValue(s.charCodeAt(i))) this.raise(LINE.array, i);
      const end = this.value(i, nesting);
      if (end === FAILED) this.raise(LINE.array, i);
      i = this.afterBlanks(end, LINE.array);
      if (s[i] === ']') return i + 1;
      if (s[i] !== ',') this.raise(LINE.array, i);
      i = this.afterBlanks(i + 1, LINE.array);
    }
  }

  private object(p: number, nesting: number): number {
    this.checkNesting(nesting);
    const { s } = this;
    let i = this.ignore(p + 1);
    if (this.brokenAt >= 0) return FAILED;
    if (s[i] === '}') return i + 1;
    for (;;) {
      if (s[i] !== '"') return FAILED;
      i = this.string(i);
      if (i === FAILED) return FAILED;
      i = this.ignore(i);
      if (this.brokenAt >= 0 || s[i] !== ':') return FAILED;
      i = this.ignore(i + 1);
      if (this.brokenAt >= 0 || !beginsValue(s.charCodeAt(i))) return FAILED;
      i = this.value(i, nesting);
      if (i === FAILED) return FAILED;
      i = this.ignore(i);
      if (this.brokenAt >= 0) return FAILED;
      if (s[i] === '}') return i + 1;
      if (s[i] !== ',') return FAILED;
      i = this.ignore(i + 1);
      if (this.brokenAt >= 0) return FAILED;
    }
  }

  private checkNesting(nesting: number): void {
    if (nesting > MAX_NESTING) throw new RubyJsonFailure(`nesting of ${nesting} is too deep`);
  }

  /** {@link ignore}, raising for `line` where a comment breaks. */
  private afterBlanks(p: number, line: number): number {
    const end = this.ignore(p);
    if (this.brokenAt >= 0) this.raise(line, end);
    return end;
  }

  /**
   * Skips blanks and comments from `p`; where a comment was begun and broke off (`/x`, an unclosed `/*`, a
   * `//` with no line break after it), sets {@link brokenAt} and returns where.
   */
  private ignore(p: number): number {
    const { s } = this;
    this.brokenAt = FAILED;
    for (;;) {
      const c = s[p];
      if (c === ' ' || c === '\t' || c === '\r' || c === '\n') {
        p++;
        continue;
      }
      if (c !== '/') return p;
      const kind = s[p + 1];
      let end: number;
      if (kind === '*') {
        end = s.indexOf('*/', p + 2);
        if (end >= 0) end += 2;
      } else if (kind === '/') {
        end = s.indexOf('\n', p + 2);
        if (end >= 0) end += 1;
      } else {
        this.brokenAt = p + 1;
        return p + 1;
      }
      if (end < 0) {
        this.brokenAt = s.length;
        return s.length;
      }
      p = end;
    }
  }

  private raise(line: number, at: number, what = 'unexpected token'): never {
    // C's `%s` of the rest of the text: it stops at a NUL character.
    const rest = at < 0 ? '' : this.s.slice(at).split('\u0000', 1)[0]!;
    throw new RubyJsonFailure(`${line}: ${what} at '${rest}'`);
  }
}

/** The characters a JSON value may begin with, to Ruby's parser: `[nft"\-[{NI]` or a digit. */
function beginsValue(c: number): boolean {
  return isDigit(c) || 'nft"-[{NI'.includes(String.fromCharCode(c));
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function isDigit1to9(c: number): boolean {
  return c >= 0x31 && c <= 0x39;
}
