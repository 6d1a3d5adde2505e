/**
 * Every setting of a resolved template as `pantograph show` reports it, and as an editor's hover shows
 * it: type and description from the schema, the template default, the value before and after the
 * project layer, and where the value came from (with its place in `.sync.yml` when the project set it).
 */
import { settingsSchema, typeLabel } from './inspect/schema.js';
import type { Data, SyncData } from './model.js';
import type { ResolvedTemplate, SettingOrigin } from './plan.js';
import type { Project } from './project.js';
import { jsonPointer } from './yaml-data.js';

type Schema = Readonly<Record<string, unknown>>;

/** One setting as `show` reports it. */
export interface SettingView {
  readonly name: string;
  readonly type: string;
  readonly description: string | undefined;
  /** The template's `default_settings` value. */
  readonly templateDefault: Data | undefined;
  /** The value before the project layer (template default, shared settings, their hooks). */
  readonly default: Data | undefined;
  /** What the project's `.sync.yml` section says. */
  readonly project: SyncData | undefined;
  readonly value: Data | undefined;
  readonly origin: (SettingOrigin & { file?: string; line?: number; column?: number }) | undefined;
}

/** Every setting the template has: defaults, subscriptions, schema properties, then any others set. */
export function settingViews(project: Project, r: ResolvedTemplate): SettingView[] {
  const t = r.template;
  const schema = settingsSchema(project, t);
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  const section = project.config.settings[t.name] ?? {};
  const names = new Set([
    ...Object.keys(t.manifest.default_settings),
    ...t.manifest.setting_subscriptions,
    ...Object.keys(properties),
    ...Object.keys(r.settings),
    ...Object.keys(section),
  ]);
  return [...names].map((name) => {
    const property = Object.hasOwn(properties, name) ? properties[name] : undefined;
    const value = own(r.settings, name);
    const origin = value === undefined || value === null ? undefined : r.origins[name];
    const position =
      origin?.layer === 'project' ? project.config.positionOf(jsonPointer([t.name, name])) : undefined;
    return {
      name,
      type: property ? typeLabel(property) : 'any',
      description: typeof property?.description === 'string' ? property.description : undefined,
      templateDefault: own(t.manifest.default_settings, name),
      default: own(r.defaults, name),
      project: own(section, name),
      value,
      origin: origin && position ? { ...origin, ...position } : origin,
    };
  });
}

function own<T>(map: { readonly [key: string]: T }, key: string): T | undefined {
  return Object.hasOwn(map, key) ? map[key] : undefined;
}

/**
 * Where a setting's value came from, in words (`show` prints it, an editor's hover shows it):
 * `template default`, `shared setting from ...`, `hook ...`, `project (.sync.yml:3:5)`. `fileName` says
 * the project file as the reader sees it (relative to the working directory, or just its name).
 */
export function settingOriginText(
  origin: NonNullable<SettingView['origin']>,
  fileName: (file: string) => string,
): string {
  switch (origin.layer) {
    case 'default':
      return 'template default';
    case 'shared':
      return `shared setting from ${origin.detail ?? 'its publishers'}`;
    case 'hook':
      return `hook ${origin.detail ?? ''}`.trimEnd();
    case 'project':
      return origin.file !== undefined && origin.line !== undefined
        ? `project (${fileName(origin.file)}:${origin.line}:${origin.column})`
        : 'project';
  }
}
