/**
 * Ruby string helpers shared with the string functions: `strip`, `lstrip`, `rstrip`, `capitalize`.
 */
const RUBY_SPACE = ' \t\n\v\f\r\0';

/** Ruby's `String#strip`: ASCII whitespace and NUL only, not Unicode spaces. */
export function rubyStrip(s: string): string {
  return rubyRstrip(rubyLstrip(s));
}

export function rubyLstrip(s: string): string {
  let i = 0;
  while (i < s.length && RUBY_SPACE.includes(s[i]!)) i++;
  return s.slice(i);
}

export function rubyRstrip(s: string): string {
  let end = s.length;
  while (end > 0 && RUBY_SPACE.includes(s[end - 1]!)) end--;
  return s.slice(0, end);
}

/** Ruby's `String#capitalize`: first character upper (title) case, the rest lower case. */
export function rubyCapitalize(s: string): string {
  const first = s.codePointAt(0);
  if (first === undefined) return s;
  const head = String.fromCodePoint(first);
  return titleCase(head) + rubyDowncase(s.slice(head.length));
}

/**
 * Ruby's `downcase`: JavaScript's, but for the one mapping JavaScript makes by context, Σ at the end of a
 * word (ς in JavaScript, σ in Ruby, which maps each character alone).
 */
export function rubyDowncase(s: string): string {
  if (!s.includes('Σ')) return s.toLowerCase();
  return s
    .split('Σ')
    .map((part) => part.toLowerCase())
    .join('σ');
}

const TITLE_CASE: Record<string, string> = {
  Ǆ: 'ǅ',
  ǅ: 'ǅ',
  ǆ: 'ǅ',
  Ǉ: 'ǈ',
  ǈ: 'ǈ',
  ǉ: 'ǈ',
  Ǌ: 'ǋ',
  ǋ: 'ǋ',
  ǌ: 'ǋ',
  Ǳ: 'ǲ',
  ǲ: 'ǲ',
  ǳ: 'ǲ',
  // Ligatures: JavaScript's upper case is all capitals (`FI`), Unicode's title case one (`Fi`).
  ﬀ: 'Ff',
  ﬁ: 'Fi',
  ﬂ: 'Fl',
  ﬃ: 'Ffi',
  ﬄ: 'Ffl',
  ﬅ: 'St',
  ﬆ: 'St',
  և: 'Եւ',
  ﬓ: 'Մն',
  ﬔ: 'Մե',
  ﬕ: 'Մի',
  ﬖ: 'Վն',
  ﬗ: 'Մխ',
  // Greek with ypogegrammeni: the title case keeps the iota below (`ᾼ`), the upper case spells it (`ΑΙ`).
  ᾳ: 'ᾼ',
  ῃ: 'ῌ',
  ῳ: 'ῼ',
  ᾲ: 'Ὰ\u0345',
  ᾴ: 'Ά\u0345',
  ᾷ: 'Α\u0342\u0345',
  ῂ: 'Ὴ\u0345',
  ῄ: 'Ή\u0345',
  ῇ: 'Η\u0342\u0345',
  ῲ: 'Ὼ\u0345',
  ῴ: 'Ώ\u0345',
  ῷ: 'Ω\u0342\u0345',
};

function titleCase(ch: string): string {
  const titled = TITLE_CASE[ch];
  if (titled !== undefined) return titled;
  const cp = ch.codePointAt(0)!;
  // Georgian Mkhedruli letters are their own title case (their upper case is Mtavruli).
  if ((cp >= 0x10d0 && cp <= 0x10fa) || (cp >= 0x10fd && cp <= 0x10ff)) return ch;
  // ᾀ-ᾇ, ᾐ-ᾗ, ᾠ-ᾧ have a title case letter of their own, eight further on (ᾈ-ᾏ, ...); those are their own.
  if (cp >= 0x1f80 && cp <= 0x1faf) return (cp & 0x0f) < 8 ? String.fromCodePoint(cp + 8) : ch;
  return ch === 'ß' ? 'Ss' : ch.toUpperCase();
}
