/**
 * libyaml's emitter as Psych drives it, for one scalar at a time: the chosen style (see yaml-styles.ts),
 * quoting and escapes, and the folding of long lines at the best width (80 columns unless `line_width`).
 */
import { characters } from '../../runtime/characters.js';
import { formatFloat, regexpWithDelimiters } from '../../runtime/format.js';
import { PDefault, PFloat, PRegexp, type Value } from '../../runtime/values.js';
import { rubyToS } from '../ruby-text.js';
import {
  analyze,
  finalStyle,
  isBlankOrEnd,
  isBreak,
  isPrintable,
  psychStyle,
  type Style,
} from './yaml-styles.js';

const BEST_WIDTH = 80;

/** Where a scalar is written: its first column, the indent of continuation lines, and whether it is a key. */
export interface Place {
  readonly column: number;
  readonly indent: number;
  readonly simpleKey: boolean;
}

/** Psych's `to_yaml` options: `indentation` (libyaml's best indent) and `line_width`. */
export interface YamlOptions {
  readonly indentation?: number;
  /** -1 for unlimited. Also makes Psych ask for folded (`>`) style for strings longer than this. */
  readonly lineWidth?: number;
}

export class YamlWriter {
  /** Set by a `|+` block and cleared by the next block scalar only (as libyaml): the document then ends with `...`. */
  openEnded = false;
  /** Spaces per nesting level (libyaml's best_indent). */
  readonly indent: number;
  /** Column after which long lines fold (libyaml's best_width). */
  private readonly width: number;
  /** Psych's own line width, which selects the folded style. */
  private readonly lineWidth: number | undefined;

  constructor(options: YamlOptions) {
    const indent = options.indentation ?? 2;
    this.indent = indent < 2 || indent > 9 ? 2 : indent;
    const width = options.lineWidth ?? BEST_WIDTH;
    this.width = width < 0 ? Number.POSITIVE_INFINITY : width <= this.indent * 2 ? BEST_WIDTH : width;
    this.lineWidth =
      options.lineWidth === undefined || options.lineWidth === -1 ? undefined : options.lineWidth;
  }

  scalar(s: string, wanted: Style, place: Place): string {
    const style = finalStyle(wanted, analyze(s), place.simpleKey, s === '');
    switch (style) {
      case 'plain':
        return this.plain(s, place);
      case 'single':
        return this.single(s, place);
      case 'double':
        return this.double(s, place);
      case 'literal':
        return this.block('|', s, place);
      case 'folded':
        return this.block('>', s, place);
    }
  }

  private plain(s: string, place: Place): string {
    let out = '';
    let column = place.column;
    let spaces = false;
    const chars = characters(s);
    for (let i = 0; i < chars.length; i++) {
      const c = chars[i]!;
      if (c === ' ') {
        if (!place.simpleKey && !spaces && column > this.width && chars[i + 1] !== ' ') {
          out += `\n${' '.repeat(place.indent)}`;
          column = place.indent;
        } else {
          out += c;
          column++;
        }
        spaces = true;
      } else {
        out += c;
        column++;
        spaces = false;
      }
    }
    return out;
  }

  private single(s: string, place: Place): string {
    let out = "'";
    let column = place.column + 1;
    let spaces = false;
    let breaks = false;
    const chars = characters(s);
    const indent = () => {
      out += ' '.repeat(place.indent);
      column = place.indent;
    };
    for (let i = 0; i < chars.length; i++) {
      const c = chars[i]!;
      if (c === ' ') {
        const inner = i !== 0 && i !== chars.length - 1;
        if (!place.simpleKey && !spaces && column > this.width && inner && chars[i + 1] !== ' ') {
          out += '\n';
          indent();
        } else {
          out += c;
          column++;
        }
        spaces = true;
      } else if (isBreak(c)) {
        if (!breaks && c === '\n') out += '\n';
        out += '\n';
        column = 0;
        breaks = true;
      } else {
        if (breaks) indent();
        out += c === "'" ? "''" : c;
        column += c === "'" ? 2 : 1;
        spaces = false;
        breaks = false;
      }
    }
    if (breaks) indent();
    return `${out}'`;
  }

  private double(s: string, place: Place): string {
    let out = '"';
    let column = place.column + 1;
    let spaces = false;
    const chars = characters(s);
    for (let i = 0; i < chars.length; i++) {
      const c = chars[i]!;
      if (!isPrintable(c) || c === '\ufeff' || isBreak(c) || c === '"' || c === '\\') {
        const esc = doubleEscape(c);
        out += esc;
        column += esc.length;
        spaces = false;
      } else if (c === ' ') {
        const inner = i !== 0 && i !== chars.length - 1;
        if (!place.simpleKey && !spaces && column > this.width && inner) {
          out += `\n${' '.repeat(place.indent)}`;
          column = place.indent;
          if (chars[i + 1] === ' ') {
            out += '\\';
            column++;
          }
        } else {
          out += c;
          column++;
        }
        spaces = true;
      } else {
        out += c;
        column++;
        spaces = false;
      }
    }
    return `${out}"`;
  }

  /** A `|` (literal) or `>` (folded) block scalar, with libyaml's indentation and chomping hints. */
  private block(indicator: '|' | '>', s: string, place: Place): string {
    let hints = '';
    if (s.startsWith(' ') || isBreak(s[0] ?? '')) hints += String(this.indent);
    const last = s[s.length - 1];
    if (last === undefined || !isBreak(last)) hints += '-';
    else if (s.length === 1 || isBreak(s[s.length - 2]!)) hints += '+';
    this.openEnded = hints.endsWith('+');
    const body = indicator === '|' ? this.literalBody(s, place.indent) : this.foldedBody(s, place.indent);
    // The caller adds the final line break; a block ends right after its last content line break.
    const out = `${indicator}${hints}\n${body}`;
    return out.endsWith('\n') ? out.slice(0, -1) : out;
  }

  private literalBody(s: string, indent: number): string {
    let out = '';
    let breaks = true;
    for (const c of s) {
      if (isBreak(c)) {
        out += '\n';
        breaks = true;
      } else {
        if (breaks) out += ' '.repeat(indent);
        out += c;
        breaks = false;
      }
    }
    return out;
  }

  /** libyaml's folded writer: lines fold at single spaces past the width; a break between text lines doubles. */
  private foldedBody(s: string, indent: number): string {
    const chars = characters(s);
    let out = '';
    let column = 0;
    let breaks = true;
    let leadingSpaces = true;
    for (let i = 0; i < chars.length; i++) {
      const c = chars[i]!;
      if (isBreak(c)) {
        if (!breaks && !leadingSpaces && c === '\n') {
          let k = i;
          while (k < chars.length && isBreak(chars[k]!)) k++;
          if (!isBlankOrEnd(chars[k])) out += '\n';
        }
        out += '\n';
        column = 0;
        breaks = true;
      } else {
        if (breaks) {
          out += ' '.repeat(indent);
          column = indent;
          leadingSpaces = c === ' ' || c === '\t';
        }
        if (!breaks && c === ' ' && chars[i + 1] !== ' ' && column > this.width) {
          out += `\n${' '.repeat(indent)}`;
          column = indent;
        } else {
          out += c;
          column++;
        }
        breaks = false;
      }
    }
    return out;
  }

  /** A scalar node (not a collection), with the style Psych asks for. */
  node(v: Value, place: Place): string {
    if (typeof v === 'string') return this.scalarNode(v, place);
    if (v === undefined) return place.simpleKey ? "! ''" : '';
    if (typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean') return String(v);
    if (v instanceof PFloat) {
      const f = v.value;
      if (Number.isNaN(f)) return '.nan';
      if (!Number.isFinite(f)) return f > 0 ? '.inf' : '-.inf';
      return formatFloat(f);
    }
    if (v instanceof PDefault) return ':default';
    if (v instanceof PRegexp) return `!ruby/regexp ${regexpWithDelimiters(v)}`;
    return this.scalarNode(rubyToS(v), place);
  }

  private scalarNode(s: string, place: Place): string {
    // Psych writes the merge key `<<` as an explicitly tagged string.
    if (s === '<<') return "!!str '<<'";
    return this.scalar(s, psychStyle(s, this.lineWidth), place);
  }
}

function doubleEscape(c: string): string {
  switch (c) {
    case '\0':
      return '\\0';
    case '\x07':
      return '\\a';
    case '\b':
      return '\\b';
    case '\t':
      return '\\t';
    case '\n':
      return '\\n';
    case '\v':
      return '\\v';
    case '\f':
      return '\\f';
    case '\r':
      return '\\r';
    case '\x1b':
      return '\\e';
    case '"':
      return '\\"';
    case '\\':
      return '\\\\';
    case '\u0085':
      return '\\N';
    case '\u00a0':
      return '\\_';
    case '\u2028':
      return '\\L';
    case '\u2029':
      return '\\P';
    default: {
      const code = c.codePointAt(0)!;
      if (code <= 0xff) return `\\x${code.toString(16).toUpperCase().padStart(2, '0')}`;
      if (code <= 0xffff) return `\\u${code.toString(16).toUpperCase().padStart(4, '0')}`;
      return `\\U${code.toString(16).toUpperCase().padStart(8, '0')}`;
    }
  }
}
