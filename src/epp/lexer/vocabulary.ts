/**
 * Puppet's words and punctuation as the lexer tells them apart: which names are keywords, which runs of
 * characters are one punctuation token, and after which tokens a `/` divides rather than opens a regexp.
 */
import type { Token } from './tokens.js';

/**
 * The keyword spelled `word`, as a string constant, or undefined. A switch on the length, then plain
 * comparisons: no hashing of every name, and keyword tokens carry internalized strings that the parser
 * compares by pointer.
 */
export function keyword(word: string): string | undefined {
  switch (word.length) {
    case 2:
      return word === 'if' ? 'if' : word === 'in' ? 'in' : word === 'or' ? 'or' : undefined;
    case 3:
      return word === 'and' ? 'and' : undefined;
    case 4:
      if (word === 'true') return 'true';
      if (word === 'else') return 'else';
      if (word === 'case') return 'case';
      return word === 'node' ? 'node' : undefined;
    case 5:
      if (word === 'false') return 'false';
      if (word === 'undef') return 'undef';
      if (word === 'elsif') return 'elsif';
      return word === 'class' ? 'class' : undefined;
    case 6:
      return word === 'unless' ? 'unless' : word === 'define' ? 'define' : undefined;
    case 7:
      return word === 'default' ? 'default' : undefined;
    case 8:
      return word === 'inherits' ? 'inherits' : undefined;
    default:
      return undefined;
  }
}

/**
 * The punctuation at `p` (its first char code is `c`), longest match first so that `==` wins over `=` and
 * `<<|` over `<<`; undefined when none. A switch on char codes: no substring or candidate list per token.
 */
export function punctuationAt(src: string, p: number, c: number): string | undefined {
  const c2 = src.charCodeAt(p + 1);
  switch (c) {
    case 60: // <
      if (c2 === 60) return src.charCodeAt(p + 2) === 124 ? '<<|' : '<<';
      if (c2 === 61) return '<=';
      if (c2 === 45) return '<-';
      if (c2 === 126) return '<~';
      if (c2 === 124) return '<|';
      return '<';
    case 124: // |
      if (c2 === 62) return src.charCodeAt(p + 2) === 62 ? '|>>' : '|>';
      return '|';
    case 61: // =
      if (c2 === 62) return '=>';
      if (c2 === 61) return '==';
      if (c2 === 126) return '=~';
      return '=';
    case 33: // !
      if (c2 === 61) return '!=';
      if (c2 === 126) return '!~';
      return '!';
    case 62: // >
      if (c2 === 61) return '>=';
      if (c2 === 62) return '>>';
      return '>';
    case 45: // -
      if (c2 === 62) return '->';
      if (c2 === 61) return '-=';
      return '-';
    case 126: // ~
      return c2 === 62 ? '~>' : undefined;
    case 43: // +
      return c2 === 61 ? '+=' : '+';
    case 58: // :
      return c2 === 58 ? '::' : ':';
    case 40:
      return '(';
    case 41:
      return ')';
    case 91:
      return '[';
    case 93:
      return ']';
    case 123:
      return '{';
    case 125:
      return '}';
    case 44:
      return ',';
    case 59:
      return ';';
    case 42:
      return '*';
    case 47:
      return '/';
    case 37:
      return '%';
    case 46:
      return '.';
    case 63:
      return '?';
    case 64:
      return '@';
    default:
      return undefined;
  }
}

/** Tokens after which `/` is division rather than the start of a regexp. */
export function endsValue(token: Token | undefined): boolean {
  if (!token) return false;
  switch (token.kind) {
    case 'VARIABLE':
    case 'NAME':
    case 'TYPE':
    case 'STRING':
    case 'DQ':
    case 'NUMBER':
    case 'REGEX':
      return true;
    case 'KEYWORD':
      return (
        token.value === 'true' ||
        token.value === 'false' ||
        token.value === 'undef' ||
        token.value === 'default'
      );
    case 'PUNCT':
      return token.value === ')' || token.value === ']' || token.value === '}';
    default:
      return false;
  }
}
