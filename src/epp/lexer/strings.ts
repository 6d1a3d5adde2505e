/**
 * Quoted strings and heredocs. A single-quoted string is one STRING token; a double-quoted string or an
 * interpolating heredoc is a DQ token whose parts are text and, for each `${...}` or `$name`, the token
 * list of the expression, which the parser turns into expressions.
 */
import { isDigit, isNameStart } from './chars.js';
import { DQ_ESCAPES, heredocEscapes } from './escapes.js';
import { Scanner } from './scanner.js';
import { keepHeredocSyntax, makeToken, setHeredocSyntax, type Token } from './tokens.js';

export abstract class StringLexer extends Scanner {
  /** Lexes one token of code at `this.pos` (whose char code is `c`): the code inside `${...}`. */
  protected abstract lexToken(space: boolean, c: number): void;

  /** A lexer of a heredoc's body, for its escapes and interpolations. */
  protected abstract heredocLexer(body: string): StringLexer;

  protected readSingleQuoted(): string {
    const { src } = this;
    const start = this.pos;
    const length = src.length;
    let p = start + 1;
    // Copied in runs; `\'` and `\\` lose their backslash, any other backslash stays.
    let out = '';
    let run = p;
    while (p < length) {
      const c = src.charCodeAt(p);
      if (c === 39) break;
      if (c === 92) {
        const n = src.charCodeAt(p + 1);
        if (n === 39 || n === 92) {
          out += src.slice(run, p);
          run = p + 1;
          p += 2;
          continue;
        }
      }
      p++;
    }
    if (p >= length)
      throw this.error(
        `Unclosed quote after "'" followed by '${this.followedBy(start + 1)}'`,
        start + 1,
        src.length,
        'EPP_UNCLOSED_STRING',
      );
    this.pos = p + 1;
    return out + src.slice(run, p);
  }

  /**
   * What follows `at` as Puppet's lexer quotes it in an error: its next five characters then `...` (line
   * breaks and tabs escaped), or `<eof>`.
   */
  protected followedBy(at: number): string {
    // A program's text ends before the wrapper parsePuppet puts around it, which is not the user's.
    const end = this.options.textEnd ?? this.src.length;
    if (at >= end) return '<eof>';
    const next = [...this.src.slice(at, Math.min(at + 10, end))].slice(0, 5).join('');
    return `${next}...`.replaceAll('\t', '\\t').replaceAll('\n', '\\n').replaceAll('\r', '\\r');
  }

  /** Puppet's warning for the escape at `pos` (a backslash): its text stays as written. */
  private unrecognizedEscape(pos: number): void {
    const escaped = String.fromCodePoint(this.src.codePointAt(pos + 1)!);
    this.options.report?.warnings.push({
      code: 'EPP_UNRECOGNIZED_ESCAPE',
      message:
        escaped === 'u'
          ? "Unicode escape '\\u' was not followed by 4 hex digits or 1-6 hex digits in {} or was > 10ffff"
          : `Unrecognized escape sequence '\\${escaped}'`,
      start: pos,
      end: pos + 1 + escaped.length,
    });
  }

  /**
   * Reads a double-quoted string body (after the opening quote) up to `terminator`, returning text parts
   * and token lists for interpolations. For heredocs, `terminator` is '' and the whole remaining source
   * of the sub-lexer is read.
   */
  protected readDoubleQuoted(terminator: string, start: number, escapes = DQ_ESCAPES): (string | Token[])[] {
    const { src } = this;
    const length = src.length;
    const end = terminator === '' ? -1 : terminator.charCodeAt(0);
    const interpolates = !(escapes as { noInterpolation?: boolean }).noInterpolation;
    const parts: (string | Token[])[] = [];
    // Plain characters are copied in runs from `run` to the current position.
    let text = '';
    let run = this.pos;
    while (true) {
      const pos = this.pos;
      if (pos >= length) {
        if (terminator === '') {
          text += src.slice(run, pos);
          break;
        }
        throw this.error(
          `Unclosed quote after '"' followed by '${this.followedBy(start + 1)}'`,
          start + 1,
          src.length,
          'EPP_UNCLOSED_STRING',
        );
      }
      const c = src.charCodeAt(pos);
      if (c === end) {
        text += src.slice(run, pos);
        this.pos++;
        break;
      }
      if (c === 92 && pos + 1 < length) {
        const handled = escapes(src[pos + 1]!, src, pos);
        if (handled?.invalid) throw this.error('invalid byte sequence in UTF-8', pos, pos + handled.length);
        if (handled) {
          text += src.slice(run, pos) + handled.text;
          this.pos += handled.length;
          run = this.pos;
          continue;
        }
        // Puppet keeps an escape a double-quoted string does not know, warning of it (`"C:\Users"`).
        if (escapes === DQ_ESCAPES) this.unrecognizedEscape(pos);
        this.pos++;
        continue;
      }
      if (c === 36 && interpolates) {
        const n = src.charCodeAt(pos + 1);
        if (n === 123) {
          text += src.slice(run, pos);
          if (text) parts.push(text);
          text = '';
          parts.push(this.lexInterpolationBlock());
          run = this.pos;
          continue;
        }
        // Puppet's `$` + word characters (`\w`): `"$Cap"` is a variable too, which the parser refuses.
        if (
          isWordStart(n) ||
          (n === 58 && src.charCodeAt(pos + 2) === 58 && isWordStart(src.charCodeAt(pos + 3)))
        ) {
          text += src.slice(run, pos);
          if (text) parts.push(text);
          text = '';
          let p = pos + 1;
          if (isDigit(src.charCodeAt(p))) {
            p = this.scanNumericName(pos, p);
          } else {
            if (src.charCodeAt(p) === 58) p += 2;
            p = this.scanQualified(p);
          }
          this.pos = p;
          run = p;
          parts.push([
            makeToken('VARIABLE', src.slice(pos + 1, p), pos, p, false),
            makeToken('EOF', '', p, p, false),
          ]);
          continue;
        }
      }
      this.pos++;
    }
    if (text || parts.length === 0) parts.push(text);
    return parts;
  }

  /** Lexes `${ ... }` (from the `$`) into a token list ending with EOF. */
  protected lexInterpolationBlock(): Token[] {
    const { src } = this;
    const open = this.pos;
    if (++this.interpolationDepth > 100) throw this.error('Interpolation nested too deeply', open, open + 2);
    this.pos += 2;
    const saved = this.tokens.length;
    const enclosingStart = this.interpolationStart;
    this.interpolationStart = saved;
    let depth = 0;
    let space = false;
    while (true) {
      let c = src.charCodeAt(this.pos);
      // Most tokens follow another directly: call the skipper only at a blank, line break or comment start.
      if (
        (c === 32 || c === 10 || c === 9 || c === 13 || c === 35 || c === 47) &&
        this.skipSpaceAndComments()
      ) {
        space = true;
        c = src.charCodeAt(this.pos);
      }
      if (this.pos >= src.length)
        throw this.error('Unclosed interpolation: missing }', open, src.length, 'EPP_UNCLOSED_STRING');
      if (c === 125 && depth === 0) {
        this.pos++;
        break;
      }
      this.lexToken(space, c);
      space = false;
      const last = this.tokens.at(-1)!;
      if (last.kind === 'PUNCT') {
        if (last.value === '{') depth++;
        else if (last.value === '}') depth--;
      }
    }
    this.interpolationDepth--;
    this.interpolationStart = enclosingStart;
    const inner = this.tokens.splice(saved);
    inner.push(makeToken('EOF', '}', this.pos - 1, this.pos, false));
    return inner;
  }

  /**
   * A heredoc's header between `@(` and `)`, as Puppet's lexer reads it: the tag (in double quotes when
   * the text interpolates), an optional `:syntax` (`[a-z][a-zA-Z0-9_+]+`) and optional `/escapes`, each
   * letter once; a `/` alone enables them all. Its errors are placed at `end`, after the `)`, where
   * Puppet's lexer is when it finds them.
   */
  private heredocSpec(
    spec: string,
    end: number,
  ): { tag: string; interpolate: boolean; flags: string; syntax: string | undefined } {
    const m = HEREDOC_SPEC.exec(spec);
    if (!m) throw this.error('Invalid syntax in heredoc expected @(endtag[:syntax][/escapes])', end);
    let tag = m[1]!.trim();
    const quoted = /^"(.*)"$/.exec(tag);
    if (quoted) tag = quoted[1]!.trim();
    if (tag === '') throw this.error('Heredoc with an empty endtag', end);
    let flags = m[3];
    if (flags !== undefined) {
      if (flags === '') flags = 'trnsuL$';
      const letters = flags.split('');
      if (new Set(letters).size !== letters.length) {
        throw this.error(`An escape char for @() may only appear once. Got '${letters.join(', ')}'`, end);
      }
      const wrong = letters.find((c) => !'trnsuL$'.includes(c));
      if (wrong !== undefined) {
        // Puppet's words, with their two blanks before `u`.
        throw this.error(
          `Invalid heredoc escape char. Only t, r, n, s,  u, L, $ allowed. Got '${wrong}'`,
          end,
        );
      }
    }
    return { tag, interpolate: quoted !== null, flags: flags ?? '', syntax: m[2] };
  }

  /**
   * `@(TAG)`, `@("TAG")` (interpolating), with optional `:syntax` and `/flags` (escapes to enable). The body
   * starts on the next line; the end line is the first that ends with `[|] [-] TAG`, where `|` marks the
   * margin to strip and `-` removes the last line break.
   */
  protected lexHeredoc(space: boolean): void {
    const { src } = this;
    const start = this.pos;
    // Puppet's lexer takes the header up to the first `)`, on this line or a later one (a line break in it
    // is then invalid syntax).
    const closeParen = src.indexOf(')', start);
    if (closeParen < 0) {
      throw this.error(
        `Unclosed parenthesis after '@(' followed by '${this.followedBy(start)}'`,
        start,
        start + 2,
      );
    }
    const spec = src.slice(start + 2, closeParen);
    const { tag, interpolate, flags, syntax } = this.heredocSpec(spec, closeParen + 1);
    this.pos = closeParen + 1;
    const lineEnd = src.indexOf('\n', this.pos);
    if (this.heredocResume < 0 && lineEnd < 0) {
      throw this.error('Heredoc without any following lines of text', this.pos);
    }
    // The body begins after the line break ending this line (or after a previous heredoc's body).
    const bodyStart = this.heredocResume >= 0 ? this.heredocResume : lineEnd + 1;
    // Puppet's end line: any line that ends with the tag (its pattern is not anchored at the line's
    // start: `say END` ends the heredoc too), blanks being Unicode's (`[[:blank:]]`).
    const endRe = new RegExp(
      `(${BLANK}*)(?:(\\|)${BLANK}*)?(?:(-)${BLANK}*)?${escapeRegExp(tag)}${BLANK}*\\r?(?:\\n|$)`,
      'u',
    );
    let lineStart = bodyStart;
    let found: RegExpExecArray | null = null;
    while (lineStart <= src.length) {
      const nl = src.indexOf('\n', lineStart);
      const line = src.slice(lineStart, nl < 0 ? src.length : nl + 1);
      found = endRe.exec(line);
      if (found) break;
      if (nl < 0) break;
      lineStart = nl + 1;
    }
    // Puppet places it where the text begins.
    if (!found) throw this.error('Heredoc without end-tagged line', bodyStart);
    let body = src.slice(bodyStart, lineStart);
    const leading = found[1]!;
    if (found[2] && leading !== '') {
      // Puppet removes the end line's exact indentation from each line that starts with it; a line with
      // less (or other) leading whitespace is left as it is.
      body = body
        .split('\n')
        .map((line) => (line.startsWith(leading) ? line.slice(leading.length) : line))
        .join('\n');
    }
    if (found[3]) body = body.replace(/\r?\n$/, '');
    this.heredocResume = lineStart + found.index + found[0].length;
    const token = this.push('DQ', tag, start, this.pos, space);
    if (syntax !== undefined) setHeredocSyntax(token, { name: syntax, textOffset: bodyStart - start });
    const escapes = heredocEscapes(flags, interpolate);
    if (!interpolate && flags === '') {
      token.parts = [body];
      return;
    }
    const sub = this.heredocLexer(body);
    token.parts = sub
      .readDoubleQuoted('', 0, escapes)
      .map((part) => (typeof part === 'string' ? part : part.map((t) => shiftToken(t, bodyStart))));
  }
}

/** Puppet's `[[:blank:]]`: a tab or any Unicode space separator. */
const BLANK = '[\\t\\p{Zs}]';

/** Puppet's heredoc header (PATTERN_HEREDOC), between `@(` and `)`: tag, `:syntax`, `/escapes`. */
const HEREDOC_SPEC =
  /^([^:/\r\n)]+)(?::[\t\p{Zs}]*([a-z][a-zA-Z0-9_+]+)[\t\p{Zs}]*)?(?:\/((?:\w|[$])*)[\t\p{Zs}]*)?$/u;

function shiftToken(t: Token, offset: number): Token {
  const parts = t.parts?.map((p) => (typeof p === 'string' ? p : p.map((x) => shiftToken(x, offset))));
  return keepHeredocSyntax(
    t,
    makeToken(t.kind, t.value, t.start + offset, t.end + offset, t.spaceBefore, parts),
  );
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A word character that may follow `$` in a string: a letter (either case), `_` or a digit. */
function isWordStart(c: number): boolean {
  return isNameStart(c) || isDigit(c) || (c >= 65 && c <= 90);
}
