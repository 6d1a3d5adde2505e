/**
 * How types print their parameters: Puppet string quoting, Ruby float text, literal values.
 * Part of the Puppet type system; import it from `../types.js`.
 */
import { puppetQuote } from '../format/quote.js';
import { timeDataToString } from '../format/timestamps.js';
import { PDefault, PFloat, PObject, PRegexp, PSensitive, PTimeData, type Value } from '../values.js';

/**
 * Puppet's single-quoted form of a string (`'it\'s'`), double-quoted when it has control characters: the
 * same quoting `String()` uses inside collections.
 */
export function quote(s: string): string {
  return puppetQuote(s);
}

/** Ruby's Float#to_s: `1.0`, `2.5`, `1.0e+16`, `1.0e-05`. */
export function rubyFloat(n: number): string {
  if (Number.isNaN(n)) return 'NaN';
  if (!Number.isFinite(n)) return n > 0 ? 'Infinity' : '-Infinity';
  if (n === 0) return Object.is(n, -0) ? '-0.0' : '0.0';
  const [mantissa, expText] = n.toExponential().split('e') as [string, string];
  const exp = Number(expText);
  if (exp < -4 || exp >= 15) {
    const m = mantissa.includes('.') ? mantissa : `${mantissa}.0`;
    const e = Math.abs(exp).toString().padStart(2, '0');
    return `${m}e${exp < 0 ? '-' : '+'}${e}`;
  }
  const fixed = n.toFixed(Math.max(0, Math.min(100, 17 - exp)));
  const shortest = String(n).includes('e') ? fixed : String(n);
  return shortest.includes('.') ? shortest : `${shortest}.0`;
}

/** How a value prints as a type parameter (Puppet's TypeFormatter). */
export function literal(v: Value): string {
  if (v === undefined) return 'undef';
  if (typeof v === 'string') return quote(v);
  if (typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean') return String(v);
  if (v instanceof PFloat) return rubyFloat(v.value);
  if (Array.isArray(v)) return `[${v.map(literal).join(', ')}]`;
  if (v instanceof Map) return `{${[...v].map(([k, x]) => `${literal(k)} => ${literal(x)}`).join(', ')}}`;
  if (v instanceof PRegexp) return `/${v.source}/`;
  if (v instanceof PDefault) return 'default';
  if (v instanceof PSensitive) return 'Sensitive [value redacted]';
  if (v instanceof PTimeData) return quote(timeDataToString(v));
  if (v instanceof PObject) return objectText(v);
  return v.toString();
}

/**
 * How Puppet prints a value of an Object type (`Point({'x' => 1, 'y' => 2})`): its type's name and the hash
 * `new` would take, an attribute at its default left out.
 */
export function objectText(o: PObject): string {
  const entries: string[] = [];
  o.type.attributes.forEach((a, i) => {
    const v = o.values[i];
    if (a.hasDefault && literal(v) === literal(a.value)) return;
    entries.push(`${quote(a.name)} => ${literal(v)}`);
  });
  return `${o.type.typeName}({${entries.join(', ')}})`;
}
