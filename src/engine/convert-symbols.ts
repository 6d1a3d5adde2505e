/**
 * The Ruby Symbols of a V1 `.sync.yml`: an unquoted scalar starting with `:` (`:development:`), which
 * Psych's scalar scanner makes a Symbol (`when /^:./`). PDK loads `.sync.yml` with `YAML.safe_load` and no
 * permitted symbols, so it stopped on such a file (the V1 run does too, engine/v1/sync-error.ts). `convert`
 * goes on, since the V2 file is read as YAML 1.2, where the same text is the string `:development`, which is
 * what pdk-templates' own examples mean by writing `':development'`: the change is said at each value.
 */
import { type Document, isScalar, Scalar, visit } from 'yaml';
import { problem } from './errors.js';
import type { Position } from './model.js';
import type { Problem } from './render-plan.js';

/** One warning per unquoted `:name` of the document (keys and values), at its place. */
export function symbolWarnings(doc: Document, at: (offset: number) => Position): Problem[] {
  const problems: Problem[] = [];
  visit(doc, {
    Scalar(_key, node) {
      if (!isScalar(node) || node.type !== Scalar.PLAIN || typeof node.value !== 'string') return;
      const text = node.value;
      if (!/^:./.test(text) || node.range === undefined || node.range === null) return;
      problems.push(
        problem(
          'warning',
          'CONVERT_SYMBOL',
          `\`${text}\` is a Ruby Symbol to Ruby's YAML, and PDK loads .sync.yml with no symbols allowed: PDK stopped on this file (Psych::DisallowedClass: Tried to load unspecified class: Symbol); the V2 file reads it as the string '${text}', the form the templates read`,
          at(node.range[0]),
          `nothing to do for Pantograph; quoting it ('${text}'), as pdk-templates' own examples do, says the same to every reader`,
        ),
      );
    },
  });
  return problems;
}
