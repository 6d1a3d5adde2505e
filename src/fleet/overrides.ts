/**
 * A fleet's overrides written into a repository's `.sync.yml`: the fleet's `template_sources` replace the
 * repository's, and the fleet's settings are set key by key. The edit goes into the file (and its
 * commit), so that `pantograph status` in a clone agrees with the fleet. Comments and key order are kept
 * (the yaml Document is edited, not rebuilt); a value already equal is not touched, so a repository
 * already in line keeps its file byte for byte.
 */
import { isDeepStrictEqual } from 'node:util';
import { isMap, parseDocument } from 'yaml';
import type { Data, DataMap } from '../engine/model.js';
import { toJson } from '../engine/yaml-data.js';

export interface SyncOverrides {
  readonly templateSources?: readonly Data[];
  readonly settings: DataMap;
}

export interface OverrideResult {
  readonly text: string;
  /** Dotted paths of the values set, e.g. `pdk_template.template_sources`, `rubocop.enabled`. */
  readonly changed: readonly string[];
}

export function applyOverrides(text: string, overrides: SyncOverrides): OverrideResult {
  const document = parseDocument(text, { keepSourceTokens: false });
  if (document.errors.length > 0) return { text, changed: [] }; // planning reports the syntax error
  const changed: string[] = [];
  const set = (path: readonly string[], value: unknown) => {
    const current = document.getIn(path, false);
    const plain = current === undefined ? undefined : toPlain(document.getIn(path, true));
    if (plain !== undefined && isDeepStrictEqual(plain, value)) return;
    document.setIn(path, document.createNode(value));
    changed.push(path.join('.'));
  };
  if (overrides.templateSources) {
    set(['pdk_template', 'template_sources'], toJson(overrides.templateSources as Data));
  }
  const walk = (prefix: readonly string[], settings: DataMap) => {
    for (const [key, value] of Object.entries(settings)) {
      const path = [...prefix, key];
      const isMapping = typeof value === 'object' && value !== null && !Array.isArray(value);
      // A section absent or `null` in the file is created whole; otherwise merge key by key.
      if (isMapping && prefix.length >= 0 && isMap(document.getIn(path, true))) walk(path, value as DataMap);
      else set(path, toJson(value));
    }
  };
  walk([], overrides.settings);
  return changed.length === 0 ? { text, changed } : { text: document.toString(), changed };
}

function toPlain(node: unknown): unknown {
  if (node !== null && typeof node === 'object' && 'toJSON' in node) {
    return (node as { toJSON(): unknown }).toJSON();
  }
  return node;
}
