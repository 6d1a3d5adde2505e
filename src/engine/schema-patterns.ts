/**
 * The regular expressions of a JSON Schema, where it writes them: each `pattern` and each key of a
 * `patternProperties`, with its JSON pointer. An untrusted schema's regular expressions run under the time
 * limit (schema-sandbox.ts); one that ran past it is named by its place in the file.
 */
import { escapePointerSegment } from './yaml-data.js';

export interface SchemaPattern {
  /** The regular expression's source. */
  readonly pattern: string;
  /** JSON pointer of the `pattern` value, or of the `patternProperties` key. */
  readonly pointer: string;
  /** Whether it is a key of `patternProperties` (its position is the key's). */
  readonly isKey: boolean;
}

/** Every regular expression of `schema`, depth first. */
export function schemaPatterns(schema: unknown): SchemaPattern[] {
  const out: SchemaPattern[] = [];
  walk(schema, '', out);
  return out;
}

function walk(value: unknown, at: string, out: SchemaPattern[]): void {
  if (typeof value !== 'object' || value === null) return;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) walk(value[i], `${at}/${i}`, out);
    return;
  }
  for (const [k, v] of Object.entries(value)) {
    const here = `${at}/${escapePointerSegment(k)}`;
    if (k === 'pattern' && typeof v === 'string') out.push({ pattern: v, pointer: here, isKey: false });
    if (k === 'patternProperties' && typeof v === 'object' && v !== null && !Array.isArray(v)) {
      for (const p of Object.keys(v)) {
        out.push({ pattern: p, pointer: `${here}/${escapePointerSegment(p)}`, isKey: true });
      }
    }
    walk(v, here, out);
  }
}
