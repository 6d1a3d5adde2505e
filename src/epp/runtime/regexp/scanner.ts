/**
 * Reading a Ruby (Onigmo) regexp source: the position, its errors, and the escapes that stand for one
 * character, which mean the same inside a class and outside one.
 */

/** A regexp Onigmo would refuse, or one Pantograph cannot run; `offset` is in the regexp's source. */
export class RegexpSyntaxError extends Error {
  constructor(
    message: string,
    readonly offset: number,
    /** Valid for Onigmo, but JavaScript has no way to say it (an atomic group, `a*+`). */
    readonly unsupported = false,
  ) {
    super(message);
    this.name = 'RegexpSyntaxError';
  }
}

/** Escapes of one control character, by their letter: `\t`, `\n`, ..., `\a` (bell), `\e` (escape). */
const CONTROL_ESCAPES: Readonly<Record<string, number>> = { t: 9, n: 10, v: 11, f: 12, r: 13, a: 7, e: 27 };

export class PatternScanner {
  i = 0;
  constructor(readonly src: string) {}

  get done(): boolean {
    return this.i >= this.src.length;
  }

  /** The code point at the position (a whole surrogate pair), without moving. */
  peek(): number {
    return this.src.codePointAt(this.i)!;
  }

  /** The code point at the position, moving past it. */
  next(): number {
    const cp = this.src.codePointAt(this.i)!;
    this.i += cp > 0xffff ? 2 : 1;
    return cp;
  }

  startsWith(text: string): boolean {
    return this.src.startsWith(text, this.i);
  }

  error(message: string, offset = this.i): RegexpSyntaxError {
    return new RegexpSyntaxError(message, offset);
  }

  /** What Onigmo has and JavaScript cannot say (`message`: "... is not supported"). */
  unsupported(message: string, offset: number): RegexpSyntaxError {
    return new RegexpSyntaxError(message, offset, true);
  }

  /**
   * After a backslash, an escape that is one character (`\t`, `\x41`, `\u{e9}`, `\cA`, `\101`, `\.`),
   * consumed; undefined (nothing consumed) for an escape that is something else (`\d`, `\p{..}`, `\1`).
   * `inClass`: octal is any `\0`-`\7` there (no backreferences in a class), and `\b` is a backspace.
   */
  charEscape(inClass: boolean, captures: number): number | undefined {
    const start = this.i - 1;
    const c = this.src[this.i];
    if (c === undefined) throw this.error('too short escape sequence', start);
    const control = CONTROL_ESCAPES[c];
    if (control !== undefined) {
      this.i++;
      return control;
    }
    if (c === 'b' && inClass) {
      this.i++;
      return 8;
    }
    if (c === 'x') return this.hexEscape(start);
    if (c === 'u') return this.unicodeEscape(start);
    if (c === 'c' || this.startsWith('C-')) {
      this.i += c === 'c' ? 1 : 2;
      if (this.done) throw this.error('end pattern at control', start);
      return this.next() & 0x1f;
    }
    if (/[0-7]/.test(c) && (inClass || c === '0' || !this.isBackreference(captures))) {
      const digits = /^[0-7]{1,3}/.exec(this.src.slice(this.i))![0];
      this.i += digits.length;
      return Number.parseInt(digits, 8);
    }
    if (/[0-9A-Za-z]/.test(c)) return undefined;
    return this.next();
  }

  /** Whether the digits after a backslash name a group (Onigmo: else they are octal, if they can be). */
  private isBackreference(captures: number): boolean {
    const digits = /^\d+/.exec(this.src.slice(this.i))![0];
    return digits.length === 1 || Number(digits) <= captures;
  }

  private hexEscape(start: number): number {
    const hex = /^x([0-9A-Fa-f]{1,2})/.exec(this.src.slice(this.i));
    if (!hex) throw this.error('invalid hex escape', start);
    this.i += hex[0].length;
    return Number.parseInt(hex[1]!, 16);
  }

  private unicodeEscape(start: number): number {
    const u = /^u(?:([0-9A-Fa-f]{4})|\{\s*([0-9A-Fa-f]{1,6})\s*\})/.exec(this.src.slice(this.i));
    if (!u) throw this.error('invalid Unicode escape', start);
    const cp = Number.parseInt(u[1] ?? u[2]!, 16);
    if (cp > 0x10ffff) throw this.error('invalid Unicode range', start);
    this.i += u[0].length;
    return cp;
  }
}
