/**
 * The web interface's API: what the page shows and does, on the library (the same functions as `show`,
 * `status` and `apply`). Every request carries the `.sync.yml` text being edited, so that the preview shows
 * unsaved settings; only `save` and `apply` write, and only `.sync.yml` and the files `apply` writes.
 */
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Hono } from 'hono';
import { EngineError } from '../engine/errors.js';
import { settingsSchema } from '../engine/inspect.js';
import { planDetailed } from '../engine/plan.js';
import { previousOutputFor } from '../engine/previous-output.js';
import { loadProject } from '../engine/project.js';
import { SYNC_FILE } from '../engine/project-config.js';
import { planProjectAt } from '../engine/project-plan.js';
import type { Problem } from '../engine/render-plan.js';
import { settingViews } from '../engine/setting-views.js';
import { sourceIdentity } from '../engine/sources/index.js';
import { setSection, setTemplateApplied } from '../engine/sync-edit.js';
import { hasErrors } from '../engine/validate.js';
import { toJson } from '../engine/yaml-data.js';
import { MAX_JSON_DEPTH } from '../epp/json-values.js';
import { readLock, apply as syncApply, status as syncStatus } from '../sync/index.js';

export interface ApiOptions {
  readonly root: string;
  /** Engine options for every load (offline, trust). */
  readonly offline?: boolean;
  readonly trust?: boolean;
}

const MAX_TEXT = 512 * 1024;

export function api(options: ApiOptions): Hono {
  const app = new Hono();
  const load = (syncText: string | undefined) =>
    loadProject(options.root, {
      ...(syncText !== undefined ? { syncText } : {}),
      offline: options.offline === true,
      trust: options.trust === true,
    });

  /** The catalogue and every applied template's settings form, for the `.sync.yml` text given. */
  app.post('/state', async (c) => {
    const { syncText } = await body(c);
    const project = await load(syncText);
    const detailed = await planDetailed(project);
    const applied = new Map(detailed.templates.map((r) => [r.template.name, r]));
    return c.json({
      project: project.name,
      syncText: project.config.text,
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
        settings: settingViews(project, r).map((v) => ({
          name: v.name,
          type: v.type,
          description: v.description ?? null,
          default: toJson(v.default ?? null),
          value: toJson(v.value ?? null),
          origin: v.origin ?? null,
        })),
      })),
      problems: detailed.plan.problems.map(problemJson),
    });
  });

  /**
   * Field errors of one template's settings as the form has them: the project planned with them, and
   * validate's own problems about that template's settings, each with the setting it is about.
   */
  app.post('/check', async (c) => {
    const { syncText, template, settings } = await body(c);
    const name = String(template);
    const text = setSection(syncText ?? '', name, (settings ?? {}) as Record<string, unknown>).text;
    const project = await load(text);
    if (!project.available.has(name)) return c.json({ error: `unknown template '${name}'` }, 404);
    const { plan } = await planDetailed(project);
    const errors = plan.problems.flatMap((p) => {
      const key = settingOf(p, name);
      return key === undefined ? [] : [{ setting: key, message: p.message }];
    });
    return c.json({ errors });
  });

  /** `.sync.yml` text with a section replaced, or a template added or removed (not saved). */
  app.post('/edit', async (c) => {
    const b = await body(c);
    const text = String(b.syncText ?? '');
    if (b.kind === 'settings') {
      return c.json(setSection(text, String(b.template), (b.settings ?? {}) as Record<string, unknown>));
    }
    const project = await load(text);
    const t = project.available.get(String(b.template));
    if (!t) return c.json({ error: `unknown template '${b.template}'` }, 404);
    return c.json(setTemplateApplied(text, t.name, b.kind === 'add', t.manifest.always_apply));
  });

  /** What apply would do with the text given: each path's state and diff. */
  app.post('/preview', async (c) => {
    const { syncText } = await body(c);
    const { plan, digests } = await planProjectAt(options.root, {
      ...(syncText !== undefined ? { syncText } : {}),
      offline: options.offline === true,
      trust: options.trust === true,
    });
    if (hasErrors(plan.problems)) return c.json({ entries: [], problems: plan.problems.map(problemJson) });
    const report = syncStatus(plan, { diff: true, digests });
    return c.json({
      entries: report.entries,
      counts: report.counts,
      problems: plan.problems.map(problemJson),
    });
  });

  /** Writes `.sync.yml` (atomically), once it loads without errors. */
  app.post('/save', async (c) => {
    const { syncText } = await body(c);
    if (typeof syncText !== 'string') return c.json({ error: 'syncText is required' }, 400);
    const project = await load(syncText);
    const errors = project.config.problems.filter((p) => p.severity === 'error');
    if (errors.length > 0) return c.json({ saved: false, problems: errors.map(problemJson) }, 422);
    writeSync(options.root, syncText);
    return c.json({ saved: true });
  });

  /** Saves the text and applies, with apply's safety: conflicts reported, hand edits kept unless `force`. */
  app.post('/apply', async (c) => {
    const { syncText, force } = await body(c);
    if (typeof syncText === 'string') {
      const project = await load(syncText);
      if (project.config.problems.some((p) => p.severity === 'error')) {
        return c.json({ ok: false, problems: project.config.problems.map(problemJson) }, 422);
      }
      writeSync(options.root, syncText);
    }
    const loaded = await planProjectAt(options.root, {
      offline: options.offline === true,
      trust: options.trust === true,
    });
    if (hasErrors(loaded.plan.problems))
      return c.json({ ok: false, problems: loaded.plan.problems.map(problemJson) }, 422);
    const lock = readLock(options.root);
    const result = await syncApply(loaded.plan, {
      force: force === true,
      confirm: () => force === true,
      digests: loaded.digests,
      ...(lock ? { previousOutput: previousOutputFor(loaded.root, lock, loaded.options) } : {}),
    });
    return c.json({
      ok: result.ok,
      message: result.message,
      written: result.written,
      removed: result.removed,
      skipped: result.skipped,
      conflicts: result.conflicts.map((x) => x.path),
    });
  });

  app.onError((e, c) => {
    if (e instanceof EngineError)
      return c.json({ error: e.message, problems: e.problems.map(problemJson) }, 422);
    if (e instanceof BadRequest) return c.json({ error: e.message }, 400);
    return c.json({ error: `internal error: ${e.message}` }, 500);
  });
  return app;
}

class BadRequest extends Error {}

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

interface Body {
  readonly syncText?: string;
  readonly template?: unknown;
  readonly settings?: unknown;
  readonly kind?: unknown;
  readonly force?: unknown;
}

async function body(c: { req: { json(): Promise<unknown> } }): Promise<Body> {
  let data: unknown;
  try {
    data = await c.req.json();
  } catch {
    throw new BadRequest('the body must be JSON');
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    throw new BadRequest('the body must be a JSON object');
  const record = data as Record<string, unknown>;
  if (
    record.syncText !== undefined &&
    (typeof record.syncText !== 'string' || record.syncText.length > MAX_TEXT)
  ) {
    throw new BadRequest(`syncText must be a string of at most ${MAX_TEXT} characters`);
  }
  // The settings are walked recursively (written as YAML, checked): nesting is bounded as in JSON files.
  if (nestsDeeper(record.settings, MAX_JSON_DEPTH)) {
    throw new BadRequest(`settings must not nest arrays and objects deeper than ${MAX_JSON_DEPTH} levels`);
  }
  return record as Body;
}

/** Whether arrays and objects in `value` nest more than `levels` deep (looking no deeper than that). */
function nestsDeeper(value: unknown, levels: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (levels === 0) return true;
  for (const item of Object.values(value)) if (nestsDeeper(item, levels - 1)) return true;
  return false;
}

function writeSync(root: string, text: string): void {
  const file = join(root, SYNC_FILE);
  const tmp = `${file}.pantograph-ui-${process.pid}`;
  writeFileSync(tmp, text);
  renameSync(tmp, file);
}

function problemJson(p: Problem): Record<string, unknown> {
  return { ...p };
}
