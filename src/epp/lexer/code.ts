/**
 * The tokens of code: variables, names, keywords and types, numbers, regular expressions, punctuation,
 * and the strings and heredocs of {@link StringLexer}. Each scan works on char codes, without regular
 * expressions or substrings, until the token's text is sliced once.
 */
import { isDigit, isHexDigit, isNameStart, isTypeStart, isWordChar } from './chars.js';
import { StringLexer } from './strings.js';
import { endsValue, keyword, punctuationAt } from './vocabulary.js';

export abstract class CodeLexer extends StringLexer {
  /** Lexes one token at `this.pos`, whose char code `c` the caller has read already. */
  protected lexToken(space: boolean, c: number): void {
    const { src } = this;
    const start = this.pos;
    if (c === 36) {
      this.lexVariable(space);
      return;
    }
    if (c === 39) {
      this.tokens.push({
        kind: 'STRING',
        value: this.readSingleQuoted(),
        start: start,
        end: this.pos,
        spaceBefore: space,
        parts: undefined,
      });
      return;
    }
    if (c === 34) {
      this.pos++;
      // Pushed before its parts are read: a `/` at the start of `${...}` follows a value, as in Puppet.
      const token = this.push('DQ', '', start, start, space);
      token.parts = this.readDoubleQuoted('"', start);
      token.end = this.pos;
      return;
    }
    if (isDigit(c)) {
      this.lexNumber(space);
      return;
    }
    if (isNameStart(c) || isTypeStart(c)) {
      this.lexWord(space, start, isTypeStart(c));
      return;
    }
    if (c === 58 && src.charCodeAt(start + 1) === 58) {
      const c3 = src.charCodeAt(start + 2);
      if (isNameStart(c3) || isTypeStart(c3)) {
        this.lexWord(space, start + 2, isTypeStart(c3));
        return;
      }
      // A `::` that starts no name (`:: == 1`, `foo::`): Puppet's lexer refuses it past the `::`.
      throw this.error('Illegal fully qualified name', start + 2);
    }
    // A `/` starts a regexp unless a value ends just before it (in `${...}`, only one of its own tokens).
    if (
      c === 47 &&
      !endsValue(this.tokens.length > this.interpolationStart ? this.tokens.at(-1) : undefined)
    ) {
      this.lexRegex(space);
      return;
    }
    if (c === 64 && src.charCodeAt(start + 1) === 40) {
      this.lexHeredoc(space);
      return;
    }
    const punctuation = punctuationAt(src, start, c);
    if (punctuation !== undefined) {
      this.pos += punctuation.length;
      this.tokens.push({
        kind: 'PUNCT',
        value: punctuation,
        start: start,
        end: this.pos,
        spaceBefore: space,
        parts: undefined,
      });
      return;
    }
    throw this.error(`Syntax error at '${src[start]}'`, start);
  }

  protected lexVariable(space: boolean): void {
    const { src } = this;
    const start = this.pos;
    let p = start + 1;
    if (isDigit(src.charCodeAt(p))) {
      p = this.scanNumericName(start, p);
    } else {
      if (src.charCodeAt(p) === 58 && src.charCodeAt(p + 1) === 58) p += 2;
      const c = src.charCodeAt(p);
      // A `$` without a name is a variable named '' to Puppet's lexer, refused by the parser's name rule.
      // Puppet's lexer takes `$` and word characters (`$::1` is a variable named '::1', refused by name).
      if (isNameStart(c) || isTypeStart(c)) p = this.scanQualified(p + 1);
      else if (isWordChar(c)) p = this.scanQualified(p);
      else p = start + 1;
    }
    this.pos = p;
    this.tokens.push({
      kind: 'VARIABLE',
      value: src.slice(start + 1, p),
      start: start,
      end: p,
      spaceBefore: space,
      parts: undefined,
    });
  }

  /** A name, keyword or type; `first` is where its first word character is (after a leading `::`). */
  protected lexWord(space: boolean, first: number, typeRef: boolean): void {
    const { src } = this;
    const start = this.pos;
    // The first character is a word character already: scanning starts after it. A segment after `::`
    // starts as the first does (Puppet's CLASSREF and BARE_WORD patterns): `foo::Bar` is a name, then a type.
    const p = this.scanSegments(first + 1, typeRef ? isTypeStart : isNameStart);
    // Names may contain dashes only in resource titles; templates never need them.
    if (typeRef && src.charCodeAt(p) === 58 && src.charCodeAt(p + 1) === 58) {
      // A type followed by a `::` that does not go on to a type (`Foo::bar`, `Foo::`), where Puppet's lexer is.
      throw start === first
        ? this.error('Illegal class reference', p + 1)
        : this.error('Illegal fully qualified class reference', p + 3);
    }
    this.pos = p;
    const word = src.slice(start, p);
    const kw = typeRef ? undefined : keyword(word);
    this.tokens.push({
      kind: typeRef ? 'TYPE' : kw !== undefined ? 'KEYWORD' : 'NAME',
      value: kw ?? word,
      start,
      end: p,
      spaceBefore: space,
      parts: undefined,
    });
  }

  protected lexNumber(space: boolean): void {
    const { src } = this;
    const start = this.pos;
    let p = start;
    const c2 = src.charCodeAt(p + 1);
    if (src.charCodeAt(p) === 48 && (c2 === 120 || c2 === 88)) {
      p += 2;
      const digits = p;
      while (isHexDigit(src.charCodeAt(p))) p++;
      if (p === digits) {
        while (isWordChar(src.charCodeAt(p))) p++;
        throw this.error(invalidNumberMessage(src.slice(start, p)), start, p);
      }
    } else {
      while (isDigit(src.charCodeAt(p))) p++;
      if (src.charCodeAt(p) === 46 && isDigit(src.charCodeAt(p + 1))) {
        p++;
        while (isDigit(src.charCodeAt(p))) p++;
      }
      const e = src.charCodeAt(p);
      if (e === 101 || e === 69) {
        const s = src.charCodeAt(p + 1);
        if (isDigit(s) || (s === 45 && isDigit(src.charCodeAt(p + 2)))) {
          p += 2;
          while (isDigit(src.charCodeAt(p))) p++;
        } else if (s === 43) {
          // Puppet's lexer takes no `+` in an exponent (`1.0e+2`): the number ends before it, invalid.
          throw this.error(`Not a valid decimal number ${src.slice(start, p + 1)}`, start, p + 1);
        }
      }
    }
    if (isWordChar(src.charCodeAt(p))) {
      while (isWordChar(src.charCodeAt(p))) p++;
      throw this.error(invalidNumberMessage(src.slice(start, p)), start, p);
    }
    this.pos = p;
    const text = src.slice(start, p);
    // Only a number starting with 0 may be well formed here and still refused (`08`, `01.5`, `0e5`).
    if (src.charCodeAt(start) === 48 && p - start > 1 && !isValidNumber(text)) {
      throw this.error(invalidNumberMessage(text), start, p);
    }
    // A Float beyond the largest double (`1e400`): Puppet's lexer fails on it, in these words.
    if (!Number.isFinite(Number(text))) {
      throw this.error(`Internal Error, NUMBER token does not contain a valid number, ${text}`, start, p);
    }
    this.tokens.push({
      kind: 'NUMBER',
      value: text,
      start: start,
      end: p,
      spaceBefore: space,
      parts: undefined,
    });
  }

  protected lexRegex(space: boolean): void {
    const { src } = this;
    const start = this.pos;
    const length = src.length;
    let p = start + 1;
    // The body is copied in runs; only `\/` changes (to `/`), other escapes stay as written.
    let body = '';
    let run = p;
    while (p < length) {
      const c = src.charCodeAt(p);
      if (c === 47) break;
      if (c === 10) {
        // Puppet's regexp may span lines; with no `/` in the rest of the text, its `/` is division.
        if (src.indexOf('/', p) < 0) break;
        throw this.error('Unterminated regular expression', start, p);
      }
      if (c === 92) {
        if (src.charCodeAt(p + 1) === 47) {
          body += `${src.slice(run, p)}/`;
          p += 2;
          run = p;
          continue;
        }
        if (p + 1 < length) {
          p += 2;
          continue;
        }
      }
      p++;
    }
    if (p >= length || src.charCodeAt(p) !== 47) {
      // No closing `/` in the rest of the text: Puppet's lexer takes the `/` as division, and its parser
      // then finds it where a value should be ("Syntax error at '/'").
      this.pos = start + 1;
      this.push('PUNCT', '/', start, start + 1, space);
      return;
    }
    body += src.slice(run, p);
    this.pos = p + 1;
    this.tokens.push({
      kind: 'REGEX',
      value: body,
      start: start,
      end: this.pos,
      spaceBefore: space,
      parts: undefined,
    });
  }
}

/** Whether Puppet's lexer takes a number's text (its `assert_numeric`). */
function isValidNumber(text: string): boolean {
  if (/^0[xX]/.test(text)) return /^0[xX][0-9A-Fa-f]+$/.test(text);
  if (/^0[^.]/.test(text)) return /^0[0-7]+$/.test(text);
  if (/^\d+[eE.]/.test(text)) return /^\d+(?:\.\d+)?(?:[eE]-?\d+)?$/.test(text);
  return /^\d+$/.test(text);
}

/** Puppet's words for a number its lexer refuses (its `assert_numeric`, then "Illegal number"). */
function invalidNumberMessage(text: string): string {
  if (/^0[xX]/.test(text)) return `Not a valid hex number ${text}`;
  if (/^0[^.]/.test(text)) return `Not a valid octal number ${text}`;
  if (/^\d+[eE.]/.test(text)) return `Not a valid decimal number ${text}`;
  return `Illegal number '${text}'`;
}
