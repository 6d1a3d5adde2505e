/**
 * The names no template may write, compared the way the file systems a project may live on compare
 * names, as git protects `.git` (is_hfs_dotgit and is_ntfs_dotgit in its path.c). On macOS and Windows
 * `.SYNC.YML` *is* the project's `.sync.yml` (whose `post` commands run); on HFS+ `.g<U+200C>it` is `.git`
 * (it ignores some invisible code points); on NTFS `.git.`, `.git::$DATA` and the short name `GIT~1` are.
 *
 * Reserved: `.git` as any segment of a path (a nested repository's hooks run as the project's do); at the
 * project's root, `.sync.yml` and `.pantograph.lock` with every state file named after it (`.lck`,
 * `.pending`, `.posted`); as the end of a file name, the suffixes of the files Pantograph writes beside a
 * file (`.pantograph-new`, `.pantograph-tmp`). A `.sync.yml` below the root is another project's, which
 * this run neither reads nor runs: a template may write one, as it may write a Makefile.
 */
import { LOCK_FILE, NEW_SUFFIX, SYNC_FILE, TMP_SUFFIX } from './project-files.js';
import { quotedName } from './quoted-name.js';

/** A segment of a path that names a reserved file. */
export interface ReservedSegment {
  /** The segment as the path spells it. */
  readonly segment: string;
  /** The reserved name it stands for (`.git`, `.sync.yml`, `Gemfile.pantograph-new`). */
  readonly reserved: string;
  /** Where a file system reads it as that name, and why, when it is not spelt so; undefined when it is. */
  readonly because: string | undefined;
}

/** What a refusal says to do: nothing a template can do but not write it. */
export const RESERVED_NAMES_HINT =
  'templates never write `.git/**`, `.sync.yml`, `.pantograph.lock*` or `*.pantograph-new`, nor a name that a case-insensitive file system (macOS, Windows), HFS+ or NTFS reads as one of them: rename the file in the template';

const SUFFIXES: readonly string[] = [NEW_SUFFIX, TMP_SUFFIX];

/** Anything beyond ASCII (HFS+ ignorables, letters case folding turns into ASCII ones). */
const NOT_ASCII = /[\u0080-\uffff]/;
/** The code points HFS+ leaves out of names (git's next_hfs_char). */
const HFS_IGNORED = /[\u200c-\u200f\u202a-\u202e\u206a-\u206f\ufeff]/gu;

/** 8.3 short names NTFS may give them: `GIT~1`, `SYNC~1.YML`, `PANTOG~1.LOC` (`.LCK`, `.PEN`, `.POS`). */
const SHORT_GIT = /^git~[1-9]$/;
const SHORT_SYNC = /^sync~[1-9]\.yml$/;
const SHORT_STATE = /^pantog~[1-9](?:\.[^.]*)?$/;

const DOT = 46;
const SPACE = 32;
const SLASH = 47;
const COLON = 58;
const TILDE = 126;

/** The first segment of a project-relative path (`/`-separated) that names a reserved file, if any. */
export function reservedSegment(path: string): ReservedSegment | undefined {
  const n = path.length;
  let start = 0;
  for (let i = 0; i <= n; i++) {
    if (i < n && path.charCodeAt(i) !== SLASH) continue;
    const last = i === n;
    // Most segments are cheaply ruled out, without a string made: the paths of every file are checked.
    if (maySpellReserved(path, start, i, last)) {
      const found = readAs(path.slice(start, i), start === 0, last);
      if (found !== undefined) return found;
    }
    start = i + 1;
  }
  return undefined;
}

/** `".SYNC.YML" is .sync.yml on macOS and Windows (which compare names without case)`, or just the name. */
export function describeReserved(r: ReservedSegment): string {
  if (r.because === undefined) return r.reserved;
  return `${quotedName(r.segment)} is ${r.reserved} ${r.because}`;
}

/**
 * Whether `path[start, end)` could be read as a reserved name: each begins with a dot, ends with a
 * suffix's dot, or is a short name (`~`); anything else must hold a character that is not ASCII (what
 * HFS+ ignores, or what case folding turns into ASCII: `ı`, `ſ`, the Kelvin sign), or what NTFS drops.
 */
function maySpellReserved(path: string, start: number, end: number, last: boolean): boolean {
  if (end === start) return false;
  const lastChar = path.charCodeAt(end - 1);
  if (path.charCodeAt(start) === DOT || lastChar === DOT || lastChar === SPACE) return true;
  for (let i = start; i < end; i++) {
    const c = path.charCodeAt(i);
    if (c >= 0x80 || c === TILDE || c === COLON) return true;
  }
  return last && SUFFIXES.some((s) => end - start > s.length && path.charCodeAt(end - s.length) === DOT);
}

/** The reserved name `segment` is read as, on some file system, with why. */
function readAs(segment: string, first: boolean, last: boolean): ReservedSegment | undefined {
  const because: string[] = [];
  let name = segment;
  const ascii = !NOT_ASCII.test(name);
  if (!ascii) {
    const ignored = [...new Set(name.match(HFS_IGNORED))];
    if (ignored.length > 0) {
      name = name.replace(HFS_IGNORED, '');
      const points = ignored.map((c) => `U+${c.charCodeAt(0).toString(16).toUpperCase()}`).join(', ');
      because.push(`on macOS HFS+ (which ignores ${points} in names)`);
    }
  }
  const colon = name.indexOf(':');
  if (colon > 0) {
    because.push(`on Windows NTFS (where ${quotedName(name.slice(colon))} names a stream of a file)`);
    name = name.slice(0, colon);
  }
  const end = name.charCodeAt(name.length - 1);
  if (end === DOT || end === SPACE) {
    const trimmed = name.replace(/[. ]+$/, '');
    if (trimmed !== '' && trimmed !== '.') {
      because.push('on Windows (which drops trailing dots and spaces)');
      name = trimmed;
    }
  }
  // Upper case first: `ı` and `ſ` are `I` and `S` then (as NTFS and APFS compare them), `K` (Kelvin) is `k`.
  const folded = ascii ? name.toLowerCase() : name.toUpperCase().toLowerCase();
  const match = matchName(name, folded, first, last);
  if (match === undefined) return undefined;
  if (match.short) because.push('on Windows NTFS (as its 8.3 short name)');
  else if (match.spelt !== match.canonical)
    because.push('on macOS and Windows (which compare names without case)');
  return {
    segment,
    reserved: match.reserved,
    because: because.length > 0 ? because.join(' and ') : undefined,
  };
}

interface Match {
  /** The reserved name, as Pantograph spells it. */
  readonly reserved: string;
  /** An 8.3 short name of it. */
  readonly short: boolean;
  /** The part of the name that is reserved (its end, for a suffix), as written, and as Pantograph spells it. */
  readonly spelt: string;
  readonly canonical: string;
}

/** The reserved name `name` (`folded`: in lower case) is, compared without case; undefined when it is none. */
function matchName(name: string, folded: string, first: boolean, last: boolean): Match | undefined {
  const whole = (reserved: string, short = false): Match => ({
    reserved,
    short,
    spelt: name,
    canonical: reserved,
  });
  const tilde = folded.includes('~');
  if (folded === '.git') return whole('.git');
  if (tilde && SHORT_GIT.test(folded)) return whole('.git', true);
  if (first) {
    if (folded === SYNC_FILE) return whole(SYNC_FILE);
    if (tilde && SHORT_SYNC.test(folded)) return whole(SYNC_FILE, true);
    if (tilde && SHORT_STATE.test(folded)) return whole(LOCK_FILE, true);
    // The lock and every name after it: its run lock, journal and posted list, and any a later version adds.
    if (folded === LOCK_FILE || folded.startsWith(`${LOCK_FILE}.`)) {
      const rest = name.slice(LOCK_FILE.length);
      const spelt = name.slice(0, LOCK_FILE.length);
      return { reserved: `${LOCK_FILE}${rest}`, short: false, spelt, canonical: LOCK_FILE };
    }
  }
  if (!last) return undefined;
  const suffix = SUFFIXES.find((s) => folded.endsWith(s));
  if (suffix === undefined) return undefined;
  // Case folding keeps the length of these ASCII names, so the end of `name` is the suffix as written.
  const spelt = name.slice(-suffix.length);
  return { reserved: `${name.slice(0, -suffix.length)}${suffix}`, short: false, spelt, canonical: suffix };
}
