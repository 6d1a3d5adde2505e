/**
 * A YAML key quoted for a message, its invisible characters written out: puppetlabs-mysql's
 * `"  changelog_user"` begins with two EN SPACEs (U+2002), which look like indentation in a terminal
 * and make the key another one than it seems.
 */
export function quotedKey(key: string): string {
  const visible = key.replace(/[\p{Cc}\p{Cf}\p{Z}]/gu, (c) =>
    c === ' ' ? c : `\\u${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`,
  );
  const blank = key !== key.trim() ? ' (it begins or ends with blank characters)' : '';
  return `'${visible}'${blank}`;
}
