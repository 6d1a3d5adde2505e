/**
 * The web interface's API: what the page shows and does, on the library (the same functions as `show`,
 * `status` and `apply`). Every request carries the `.sync.yml` text being edited, so that the preview shows
 * unsaved settings; only `save` and `apply` write (writes.ts), and only `.sync.yml` and the files `apply`
 * writes.
 */
import { Hono } from 'hono';
import { settingsSchema } from '../engine/inspect/schema.js';
import { ReplaceValue } from '../engine/model.js';
import { planDetailed } from '../engine/plan.js';
import { loadProject } from '../engine/project.js';
import { planProjectAt } from '../engine/project-plan.js';
import type { Problem } from '../engine/render-plan.js';
import { settingViews } from '../engine/setting-views.js';
import { sourceIdentity } from '../engine/sources/index.js';
import { setSection } from '../engine/sync-edit.js';
import { addTemplateText, removeTemplateText, setSectionText } from '../engine/sync-text-edit.js';
import { hasErrors } from '../engine/validate.js';
import { toJson } from '../engine/yaml-data.js';
import { maskCredentials } from '../shared/url-credentials.js';
import { status as syncStatus } from '../sync/index.js';
import { outcomeOf, Previews } from './preview-fingerprint.js';
import { type ApiOptions, body, editRequest, engineOptions } from './project-request.js';
import { BadRequest, errorAnswer, problemsIn } from './request.js';
import { baseOnDisk } from './sync-base.js';
import { writes } from './writes.js';

export type { ApiOptions };

export function api(options: ApiOptions): Hono {
  const app = new Hono();
  const load = (syncText: string | undefined) => loadProject(options.root, engineOptions(options, syncText));
  const previews = new Previews();

  /**
   * The catalogue and every applied template's settings form, for the `.sync.yml` text given. Without a
   * text (the page loading), the file's, and its `base`: what a save or an apply says the edit is based on.
   */
  app.post('/state', async (c) => {
    const { syncText } = await body(c);
    // Hashed before the file is read for the project: a save in between gives a base older than the text
    // shown, so the next write is refused, never one that drops that save.
    const base = syncText === undefined ? baseOnDisk(options.root) : undefined;
    const project = await load(syncText);
    const detailed = await planDetailed(project);
    const applied = new Map(detailed.templates.map((r) => [r.template.name, r]));
    return c.json({
      project: project.name,
      syncText: project.config.text,
      // A V1 or modulesync .sync.yml: no templates, no forms; the page says why (and what it still does).
      ...(project.v1
        ? { v1: { kind: project.v1.kind, url: maskCredentials(project.v1.url), origin: project.v1.origin } }
        : {}),
      ...(base !== undefined ? { base } : {}),
      catalogue: [...project.available.values()].map((t) => ({
        name: t.name,
        description: t.manifest.description ?? '',
        tags: t.manifest.tags,
        version: t.manifest.version ?? null,
        alwaysApply: t.manifest.always_apply,
        applied: applied.has(t.name),
        source: sourceIdentity(t.source.spec),
      })),
      forms: [...applied.values()].map((r) => ({
        template: r.template.name,
        schema: settingsSchema(project, r.template),
        values: toJson(project.config.settings[r.template.name] ?? {}),
        // Settings tagged `!replace` (the page says so at the field; an edit keeps the tag).
        replaced: Object.entries(project.config.settings[r.template.name] ?? {})
          .filter(([, v]) => v instanceof ReplaceValue)
          .map(([k]) => k),
        settings: settingViews(project, r).map((v) => ({
          name: v.name,
          type: v.type,
          description: v.description ?? null,
          default: toJson(v.default ?? null),
          value: toJson(v.value ?? null),
          origin: v.origin ?? null,
        })),
        // The errors of its settings as the file has them, said at their fields (with their place in
        // .sync.yml): a value written in an editor is checked as the form's own are.
        errors: settingErrors(detailed.plan.problems, r.template.name),
      })),
      problems: detailed.plan.problems.map(problemsIn(options.root)),
    });
  });

  /**
   * Field errors of one template's settings as the form has them: the project planned with them, and
   * validate's own problems about that template's settings, each with the setting it is about.
   */
  app.post('/check', async (c) => {
    const b = await body(c);
    const { syncText, template: name } = editRequest(b);
    const text = sectionEdit(syncText, name, b.settings ?? {}).text;
    const project = await load(text);
    if (!project.available.has(name)) return c.json({ error: `unknown template '${name}'` }, 404);
    const { plan } = await planDetailed(project);
    // No place in the file: the form's values are not in the page's text until they are valid.
    const errors = settingErrors(plan.problems, name).map(({ setting, message }) => ({ setting, message }));
    return c.json({ errors });
  });

  /** `.sync.yml` text with a section replaced, or a template added or removed (not saved). */
  app.post('/edit', async (c) => {
    const b = await body(c);
    const { syncText: text, template } = editRequest(b);
    if (b.kind === undefined) throw new BadRequest('kind is required: settings, add or remove');
    if (b.kind === 'settings') return c.json(sectionEdit(text, template, b.settings ?? {}));
    const project = await load(text);
    const t = project.available.get(template);
    if (!t) return c.json({ error: `unknown template '${template}'` }, 404);
    // The edits of `pantograph add template`: the rest of the file kept byte for byte.
    const next =
      b.kind === 'add'
        ? addTemplateText(project.config, t.name)
        : removeTemplateText(project.config, t.name, t.manifest.always_apply);
    return c.json({ text: next, changed: next === text ? [] : ['pdk_template.templates'] });
  });

  /**
   * What apply would do with the text given: each path's state and diff, and the preview's `fingerprint`,
   * which an apply must give back (it writes only what was previewed).
   */
  app.post('/preview', async (c) => {
    const { syncText } = await body(c);
    const { plan, digests } = await planProjectAt(options.root, engineOptions(options, syncText));
    if (hasErrors(plan.problems))
      return c.json({ entries: [], problems: plan.problems.map(problemsIn(options.root)) });
    const report = syncStatus(plan, { diff: true, digests });
    return c.json({
      entries: report.entries,
      counts: report.counts,
      problems: plan.problems.map(problemsIn(options.root)),
      fingerprint: previews.remember(outcomeOf(plan, report.entries)),
    });
  });

  app.route('/', writes(options, previews));

  app.onError((e, c) => errorAnswer(e, c, options.root));
  return app;
}

/** A template's settings section made the form's: splices keeping the rest, else the Document's edit. */
function sectionEdit(text: string, template: string, settings: Record<string, unknown>) {
  return setSectionText(text, template, settings, setSection);
}

/** The problems about `template`'s settings, each with the setting it is about and its place in the text. */
function settingErrors(problems: readonly Problem[], template: string) {
  return problems.flatMap((p) => {
    const setting = settingOf(p, template);
    if (setting === undefined) return [];
    return [
      { setting, message: p.message, ...(p.line !== undefined ? { line: p.line, column: p.column } : {}) },
    ];
  });
}

/** The setting a settings problem of `template` is about (validate's messages name it), if it is one. */
function settingOf(p: Problem, template: string): string | undefined {
  if (p.code === 'SETTINGS_INVALID' && p.message.startsWith(`${template}: setting '`)) {
    return /setting '([^'.]+)/.exec(p.message)?.[1];
  }
  if (p.code === 'SETTINGS_UNKNOWN_KEY' && p.message.endsWith(`for template '${template}'`)) {
    return /unknown setting '([^']+)'/.exec(p.message)?.[1];
  }
  return undefined;
}
