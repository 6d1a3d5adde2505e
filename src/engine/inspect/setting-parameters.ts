/** The bottom layer of a template's inspection (see ../inspect.ts): its settings as parameters. */
import type { LoadedTemplate } from '../model.js';
import type { ResolvedTemplate } from '../plan.js';
import type { Project } from '../project.js';
import type { Problem } from '../render-plan.js';
import { publishersByName } from '../shared-settings.js';
import { jsonPointer, toJson } from '../yaml-data.js';
import { own, parameter, sameData, setKey } from './helpers.js';
import { type Schema, settingsSchema, typeLabel } from './schema.js';
import type { InspectOrigin, InspectParameter } from './tree.js';

/** The settings of a template as parameters: the bottom layer of a TemplateInspector. */
export abstract class SettingsInspector {
  protected readonly t: LoadedTemplate;
  protected readonly schema: Schema;
  protected readonly properties: Readonly<Record<string, Schema>>;
  protected readonly settings: Readonly<Record<string, InspectParameter>>;
  protected readonly unresolved: boolean;

  constructor(
    protected readonly project: Project,
    protected readonly r: ResolvedTemplate,
    protected readonly problems: Problem[],
  ) {
    this.t = r.template;
    this.schema = settingsSchema(project, this.t);
    this.properties = (this.schema.properties ?? {}) as Record<string, Schema>;
    this.settings = this.settingParameters();
    // A template whose JavaScript hooks may not run was never resolved: its settings are unknown.
    this.unresolved = !this.t.source.trusted && Object.values(this.t.hooks).some((h) => h?.kind === 'mjs');
  }

  /** Every setting: defaults, subscriptions, schema properties, then any others set (as `show` lists them). */
  private settingParameters(): Record<string, InspectParameter> {
    const { t, r } = this;
    const section = this.project.config.settings[t.name] ?? {};
    const names = new Set([
      ...Object.keys(t.manifest.default_settings),
      ...t.manifest.setting_subscriptions,
      ...Object.keys(this.properties),
      ...Object.keys(r.settings),
      ...Object.keys(section),
    ]);
    const out: Record<string, InspectParameter> = {};
    for (const name of names) setKey(out, name, this.setting(name, this.typeOf(name)));
    return out;
  }

  /** A setting as a parameter, with the given type. */
  protected setting(name: string, type: string): InspectParameter {
    const { t, r } = this;
    const section = this.project.config.settings[t.name] ?? {};
    const before = own(r.defaults, name);
    const final = own(r.settings, name);
    const fromProject = own(section, name) !== undefined && own(section, name) !== null;
    const changedLater = final !== undefined && final !== null && !sameData(before, final);
    const hasDefault = before !== undefined && before !== null;
    const hasValue = (fromProject || changedLater) && final !== undefined && final !== null;
    const origin = r.origins[name];
    let o: InspectOrigin | null = null;
    if ((hasValue || hasDefault) && origin) {
      o = { Layer: origin.layer, ...(origin.detail !== undefined ? { Detail: origin.detail } : {}) };
      if (origin.layer === 'project') {
        const p = this.project.config.positionOf(jsonPointer([t.name, name]));
        o = { ...o, File: p.file, Line: p.line, Column: p.column };
      }
    }
    return parameter(type, this.descriptionOf(name), {
      ...(hasDefault ? { Default: toJson(before) } : {}),
      ...(hasValue ? { Value: toJson(final) } : {}),
      origin: o,
    });
  }

  protected typeOf(name: string): string {
    const property = own(this.properties, name);
    return property ? typeLabel(property) : 'any';
  }

  private descriptionOf(name: string): string | null {
    const property = own(this.properties, name);
    if (typeof property?.description === 'string') return property.description;
    if (!this.t.manifest.setting_subscriptions.includes(name)) return null;
    const publisher = publishersByName(this.project.applied)
      .get(name)
      ?.find((p) => p !== this.t);
    return publisher?.manifest.shared_settings[name]?.description ?? null;
  }
}
