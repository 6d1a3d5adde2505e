/**
 * Just enough of semver ranges for `template.json`'s `requires` (the Pantograph versions a template works
 * with): comparators (`>=1.2.0 <2.0.0`, `=1.0.0`, `1.0.0`), caret (`^1.2`), tilde (`~1.2.3`), x-ranges
 * (`1.x`, `1.2.*`, `*`) and alternatives joined by `||`. Pre-release tags are compared as in semver.
 */

type Version = readonly [number, number, number, string];

const VERSION =
  /^v?(\d+|[xX*])(?:\.(\d+|[xX*]))?(?:\.(\d+|[xX*]))?(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/;

/** Parses a full version (`1.2.3`, `1.2.3-beta.1`). */
export function parseVersion(text: string): Version | undefined {
  const m = VERSION.exec(text.trim());
  if (!m || [m[1], m[2], m[3]].some((p) => p === undefined || /[xX*]/.test(p))) return undefined;
  return [Number(m[1]), Number(m[2]), Number(m[3]), m[4] ?? ''];
}

function compare(a: Version, b: Version): number {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return (a[i] as number) - (b[i] as number);
  if (a[3] === b[3]) return 0;
  if (a[3] === '') return 1; // a release is above its pre-releases
  if (b[3] === '') return -1;
  return a[3] < b[3] ? -1 : 1;
}

type Comparator = (v: Version) => boolean;

/** A partial version (`1`, `1.2`, `1.x`) as the bounds it stands for. */
function partial(text: string): { parts: number[]; pre: string } | undefined {
  const m = VERSION.exec(text.trim());
  if (!m) return undefined;
  const parts: number[] = [];
  for (const p of [m[1], m[2], m[3]]) {
    if (p === undefined || /[xX*]/.test(p)) break;
    parts.push(Number(p));
  }
  return { parts, pre: m[4] ?? '' };
}

const full = (parts: number[], pre = ''): Version => [parts[0] ?? 0, parts[1] ?? 0, parts[2] ?? 0, pre];

function bump(parts: number[], at: number): Version {
  const next = parts.slice(0, at + 1);
  next[at] = (next[at] ?? 0) + 1;
  return full(next, '0');
}

function comparator(token: string): Comparator | undefined {
  const m = /^(>=|<=|>|<|=|\^|~)?\s*(.+)$/.exec(token);
  if (!m) return undefined;
  const op = m[1] ?? '';
  const p = partial(m[2]!);
  if (!p) return undefined;
  const { parts, pre } = p;
  const low = full(parts, pre);
  if (parts.length === 0) return () => true; // `*`
  switch (op) {
    case '>=':
      return (v) => compare(v, low) >= 0;
    case '>':
      return parts.length < 3
        ? (v) => compare(v, bump(parts, parts.length - 1)) >= 0
        : (v) => compare(v, low) > 0;
    case '<=':
      return parts.length < 3
        ? (v) => compare(v, bump(parts, parts.length - 1)) < 0
        : (v) => compare(v, low) <= 0;
    case '<':
      return (v) => compare(v, low) < 0;
    case '^': {
      const at = parts.findIndex((n, i) => n !== 0 || i === parts.length - 1);
      const high = bump(parts, Math.max(0, at));
      return (v) => compare(v, low) >= 0 && compare(v, high) < 0;
    }
    case '~': {
      const high = bump(parts, parts.length > 1 ? 1 : 0);
      return (v) => compare(v, low) >= 0 && compare(v, high) < 0;
    }
    default: {
      if (parts.length === 3) return (v) => compare(v, low) === 0;
      const high = bump(parts, parts.length - 1);
      return (v) => compare(v, low) >= 0 && compare(v, high) < 0;
    }
  }
}

/** Whether `version` satisfies `range`; undefined when the range cannot be read. */
export function satisfies(version: string, range: string): boolean | undefined {
  const v = parseVersion(version);
  if (!v) return undefined;
  let any = false;
  for (const alternative of range.split('||')) {
    const tokens = alternative
      .trim()
      .replace(/(>=|<=|>|<|=|\^|~)\s+/g, '$1')
      .split(/\s+/)
      .filter(Boolean);
    const comparators = tokens.length === 0 ? [() => true] : tokens.map(comparator);
    if (comparators.some((c) => c === undefined)) return undefined;
    if ((comparators as Comparator[]).every((c) => c(v))) any = true;
  }
  return any;
}
