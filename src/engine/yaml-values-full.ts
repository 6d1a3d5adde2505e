/**
 * The whole reading of YAML values (see yaml-values.ts): what the simple reader does not take is read as
 * `.sync.yml` is (yaml-data.ts, YAML 1.1 with Psych's scalars), whose first error is the one reported,
 * at its line and column.
 */
import { type PHash, PSymbol } from '../epp/runtime/values.js';
import { parseYamlData } from './yaml-data.js';
import { simpleYamlValues, ValuesError, valuesOfData } from './yaml-values.js';

/** The values of a YAML document; `label` names it in positions. Throws {@link ValuesError}. */
export function yamlValues(text: string, label: string, what = 'values'): PHash {
  return simpleYamlValues(text, what) ?? fullYamlValues(text, label, what);
}

/** The values of any YAML document, by the `yaml` package. Throws {@link ValuesError}. */
export function fullYamlValues(text: string, label: string, what = 'values'): PHash {
  const parsed = parseYamlData(text, label, {
    version: '1.1',
    errorCode: 'VALUES_YAML',
    refuseTimestamps: true,
    symbol: (name) => PSymbol.of(name),
  });
  const error = parsed.problems.find((p) => p.severity === 'error');
  if (error !== undefined || parsed.data === undefined) {
    const position = error?.line !== undefined ? { line: error.line, column: error.column ?? 1 } : undefined;
    throw new ValuesError('VALUES_YAML', error?.message ?? 'not a YAML document', position, error?.hint);
  }
  return valuesOfData(parsed.data, what);
}
