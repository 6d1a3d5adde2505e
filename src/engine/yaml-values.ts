/**
 * Values for a template from YAML, read as `puppet epp render --values_file` reads a YAML file: Psych,
 * YAML 1.1 (`yes` is true, `010` is 8, `1e3` a string), with Integer and Float kept apart (`1` and `1.0`)
 * and integers beyond 2^53 exact. One reading for `epp render --values-file` (and `--facts`) and for the
 * playground, so that a template gets the same values in both.
 *
 * Two steps, so that a short command loads no more than it needs: the simple reader here takes the usual
 * values file without the `yaml` package (shared/simple-yaml.ts); any other document is read by
 * yaml-values-full.ts, which loads it (the command line imports that module only then).
 */
import { fromJs } from '../epp/runtime/convert.js';
import { isHash, type PHash } from '../epp/runtime/values.js';
import { readSimpleYaml } from '../shared/simple-yaml.js';

/**
 * Values that cannot be read: `VALUES_YAML` (not YAML, or YAML Pantograph does not read) or
 * `VALUES_NOT_HASH`, the message, where in the text (1-based) when known, and what to do.
 */
export class ValuesError extends Error {
  override name = 'ValuesError';
  constructor(
    readonly code: 'VALUES_YAML' | 'VALUES_NOT_HASH',
    message: string,
    readonly position?: { readonly line: number; readonly column: number },
    readonly hint?: string,
  ) {
    super(message);
  }
}

/** The values of a document the simple reader takes, or undefined: read it with `fullYamlValues`. */
export function simpleYamlValues(text: string, what = 'values'): PHash | undefined {
  const data = readSimpleYaml(text);
  return data === undefined ? undefined : valuesOfData(data, what);
}

/**
 * A YAML document's data (integers as bigint) as the hash of values: numbers are Floats, bigints
 * Integers; an empty document gives no values.
 */
export function valuesOfData(data: unknown, what: string): PHash {
  const value = fromJs(data, { numbers: 'float' });
  if (value === undefined) return new Map();
  if (!isHash(value))
    throw new ValuesError('VALUES_NOT_HASH', `${what} must be a hash (a JSON object or YAML mapping)`);
  return value;
}
