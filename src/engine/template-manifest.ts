/** A template's `template.json` as a TemplateManifest: its fields with their defaults (see repository.ts). */
import { delimitersProblem } from '../epp/lexer/delimiters.js';
import { isPlainObject } from '../shared/plain-object.js';
import {
  type Data,
  isMap,
  type SharedSettingDecl,
  type TemplateManifest,
  type V1SettingRule,
} from './model.js';
import { toJson } from './yaml-data.js';

/** `v1_settings` as rules; entries of the wrong shape (reported by the schema check) are left out. */
function v1Rules(value: Data | undefined): Record<string, V1SettingRule> {
  const out: Record<string, V1SettingRule> = {};
  if (!isMap(value)) return out;
  for (const [key, rule] of Object.entries(value)) {
    if (rule === null) out[key] = null;
    else if (typeof rule === 'string') out[key] = { to: rule };
    else if (isMap(rule) && typeof rule.to === 'string') {
      const entries = isMap(rule.boolean_entries) ? rule.boolean_entries : {};
      const booleanEntries = Object.fromEntries(
        Object.entries(entries).filter((e): e is [string, string] => typeof e[1] === 'string'),
      );
      out[key] = {
        to: rule.to,
        ...(typeof rule.strip_suffix === 'string' ? { stripSuffix: rule.strip_suffix } : {}),
        ...(Object.keys(booleanEntries).length > 0 ? { booleanEntries } : {}),
      };
    }
  }
  return out;
}

/** The manifest with defaults; fields of the wrong type (already reported) are left at their default. */
export function readManifest(data: Data, dirName: string): TemplateManifest {
  const m = isMap(data) ? data : {};
  const str = (v: Data | undefined) => (typeof v === 'string' ? v : undefined);
  const strings = (v: Data | undefined) =>
    Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  const name = str(m.name) ?? dirName;
  const tags = [...new Set([...strings(m.tags), dirName])];
  const shared: Record<string, SharedSettingDecl> = {};
  if (isMap(m.shared_settings)) {
    for (const [key, decl] of Object.entries(m.shared_settings)) {
      if (!isMap(decl)) continue;
      const schema = toJson(decl.schema);
      Object.defineProperty(shared, key, {
        enumerable: true,
        value: {
          description: str(decl.description),
          schema: isPlainObject(schema) ? schema : undefined,
          value: Object.hasOwn(decl, 'value') ? decl.value : undefined,
        } satisfies SharedSettingDecl,
      });
    }
  }
  const delimiters = strings(m.delimiters);
  return {
    name,
    description: str(m.description) ?? name,
    type: str(m.type) ?? 'module',
    tags,
    always_apply: m.always_apply === true,
    default_settings: isMap(m.default_settings) ? m.default_settings : {},
    setting_subscriptions: strings(m.setting_subscriptions),
    shared_settings: shared,
    v1_files: strings(m.v1_files),
    v1_settings: v1Rules(m.v1_settings),
    v1_reads: isMap(m.v1_reads)
      ? Object.fromEntries(Object.entries(m.v1_reads).map(([file, keys]) => [file, strings(keys)]))
      : {},
    v1_defaults: isMap(m.v1_defaults)
      ? Object.fromEntries(Object.entries(m.v1_defaults).map(([file, keys]) => [file, strings(keys)]))
      : {},
    v1_default: m.v1_default === 'managed' || m.v1_default === 'unmanaged' ? m.v1_default : undefined,
    v1_convert_settings: isMap(m.v1_convert_settings) ? m.v1_convert_settings : {},
    version: str(m.version),
    requires: str(m.requires),
    // Invalid delimiters (reported by the schema check) never reach the lexer: an empty one made it loop.
    delimiters:
      delimiters.length === 2 && delimitersProblem(delimiters[0]!, delimiters[1]!) === undefined
        ? [delimiters[0]!, delimiters[1]!]
        : undefined,
  };
}
