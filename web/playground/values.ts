/**
 * The playground's values, read as the command line reads them, so that a template renders alike in both:
 * a JSON object as `epp render --values-file x.json` reads it (and `--values '{...}'`), anything else as
 * `--values-file values.yaml` does (Psych's YAML 1.1, src/engine/yaml-values.ts): `1.0` is a Float, `1` an
 * Integer, 9007199254740993 exact, `yes` true.
 */
import { fullYamlValues } from '../../src/engine/yaml-values-full.js';
import { ValuesError } from '../../src/engine/yaml-values.js';
import { EppError } from '../../src/epp/errors.js';
import { parseJsonValues } from '../../src/epp/json-values.js';
import { isHash, type PHash } from '../../src/epp/runtime/values.js';

/** What is wrong with the values: the message (`values:line:col: ...`) and the offset to underline. */
export interface ValuesProblem {
  readonly message: string;
  readonly code: string;
  readonly offset: number;
  readonly hint?: string;
}

const LABEL = 'values';

export function readValues(text: string): { values: PHash } | { problem: ValuesProblem } {
  try {
    // The whole reading: the command line's simple reader gives the same values (test/shared/
    // simple-yaml.test.ts), faster only in a fresh process, and would add its code to the page.
    if (!looksLikeJson(text)) return { values: fullYamlValues(text, LABEL) };
    const value = parseJsonValues(text, LABEL);
    if (!isHash(value)) throw new ValuesError('VALUES_NOT_HASH', 'values must be a hash (a JSON object or YAML mapping)');
    return { values: value };
  } catch (e) {
    if (e instanceof ValuesError) {
      const at = e.position;
      return {
        problem: {
          message: `${LABEL}:${at ? `${at.line}:${at.column}:` : ''} ${e.message} [${e.code}]`,
          code: e.code,
          offset: at ? offsetOf(text, at.line, at.column) : 0,
          ...(e.hint === undefined ? {} : { hint: e.hint }),
        },
      };
    }
    if (e instanceof EppError) {
      return {
        problem: {
          message: `${LABEL}:${e.line === undefined ? '' : `${e.line}:${e.column}:`} ${e.message} [${e.code}]`,
          code: e.code,
          offset: e.location?.span.start ?? 0,
          ...(e.hint === undefined ? {} : { hint: e.hint }),
        },
      };
    }
    throw e;
  }
}

/** A JSON object, as the command line tells `--values '{...}'` from Puppet code. */
function looksLikeJson(text: string): boolean {
  if (!text.trimStart().startsWith('{')) return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** The offset of a 1-based line and column (in UTF-16 units, as the engine counts columns). */
function offsetOf(text: string, line: number, column: number): number {
  let offset = 0;
  for (let l = 1; l < line; l++) {
    const next = text.indexOf('\n', offset);
    if (next < 0) return text.length;
    offset = next + 1;
  }
  return Math.min(offset + column - 1, text.length);
}
