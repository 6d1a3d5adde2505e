/**
 * A declared setting changed by a hook that runs after the settings were validated (`after_project_settings`,
 * `after_file_resolution`, `before_file_render`). Such a hook may derive settings under names the schema
 * does not declare, unchecked; but a name the schema declares keeps its rule: the files would otherwise
 * render with a value the author said cannot happen. Checked is only what the hook changed, against the
 * template's own `template_schema.json` (defaults' inferred types are no promise of the author's).
 */
import { join, relative } from 'node:path';
import { problem } from './errors.js';
import { hookKeyPosition } from './hook-source.js';
import type { DataMap, HookFile, HookName, LoadedTemplate } from './model.js';
import type { Problem } from './render-plan.js';
import { dataEquals, type SettingsValidationContext, schemaCheck, setOwn } from './settings.js';
import { parsePointer } from './yaml-data.js';

/** The hooks that run after the settings were validated. */
export const HOOKS_AFTER_VALIDATION: readonly HookName[] = [
  'after_project_settings',
  'after_file_resolution',
  'before_file_render',
];

/** The problems of the declared settings the hook `name` changed from `before` to `after`; [] when none. */
export function declaredSettingsBroken(
  t: LoadedTemplate,
  name: HookName,
  hook: HookFile,
  before: DataMap,
  after: DataMap,
  ctx: SettingsValidationContext,
  /** The file being rendered, for `before_file_render`. */
  file?: string,
): Problem[] {
  if (!t.schema) return [];
  const properties = (t.schema.properties ?? {}) as Record<string, unknown>;
  const declared = Object.keys(properties);
  const changed = new Set(declared.filter((k) => !dataEquals(before[k] ?? null, after[k] ?? null)));
  if (changed.size === 0) return [];
  // Only the declared names are judged: an undeclared one is the hook's own (no unknown-key error).
  const data: DataMap = {};
  for (const k of declared) if (Object.hasOwn(after, k)) setOwn(data, k, after[k]!);
  const check = schemaCheck(t, data, ctx);
  if (Array.isArray(check)) return check;
  const wrongType = new Set(check.violations.filter((v) => v.keyword === 'type').map((v) => v.pointer));
  const out: Problem[] = [];
  for (const v of check.violations) {
    // One error per value: not also "none of the enum's values" when its type is wrong already.
    if ((v.keyword === 'enum' || v.keyword === 'const') && wrongType.has(v.pointer)) continue;
    const segments = parsePointer(v.pointer);
    const missing = v.keyword === 'required' && segments.length === 0 ? v.params.missingProperty : undefined;
    const key = typeof missing === 'string' ? missing : segments[0];
    if (key === undefined || !changed.has(key)) continue;
    const setting = segments.length > 0 ? segments.join('.') : key;
    const during = file !== undefined ? ` (rendering ${file})` : '';
    const message =
      missing !== undefined
        ? `removes setting '${key}', which its schema requires`
        : `sets setting '${setting}' to ${shown(valueAt(after, segments))}, which its schema refuses: ${v.message}`;
    const rule = t.schemaPositions?.positionOf(`/properties/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`);
    // Named inside the template (the error names the template): the same from a project and from the repository.
    const schemaFile = relative(t.dir, t.schemaFile ?? join(t.dir, 'template_schema.json'));
    const schemaAt = rule ? `${relative(t.dir, rule.file)}:${rule.line}:${rule.column}` : schemaFile;
    out.push(
      problem(
        'error',
        'SETTINGS_INVALID',
        `${t.name}: hook ${name}${during} ${message}`,
        hookKeyPosition(hook.path, key) ?? { file: hook.path, line: 1, column: 1 },
        `${schemaAt} declares '${key}': a hook after the settings were validated may only set it to what the ` +
          'schema allows; a value derived for the files alone may go under a name the schema does not declare',
      ),
    );
  }
  return out;
}

function valueAt(data: DataMap, segments: readonly string[]): unknown {
  let at: unknown = data;
  for (const s of segments)
    at = at !== null && typeof at === 'object' ? (at as Record<string, unknown>)[s] : undefined;
  return at;
}

/** A value as the error quotes it: JSON, cut short. */
function shown(value: unknown): string {
  const text = JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? Number(v) : v)) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
