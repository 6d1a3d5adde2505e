/**
 * A request of the project's API (api.ts, writes.ts): its body, with the `.sync.yml` text being edited and
 * the settings bounded, and the engine's options it is planned with.
 */
import type { Context } from 'hono';
import { MAX_YAML_DEPTH } from '../engine/yaml-depth.js';
import { BadRequest, jsonObject } from './request.js';

export interface ApiOptions {
  readonly root: string;
  /** Engine options for every load (offline, trust). */
  readonly offline?: boolean;
  readonly trust?: boolean;
  /** `pantograph ui --no-strict`: unknown variables warn and render empty, as `apply --no-strict`. */
  readonly strict?: boolean;
  /** A V1 or modulesync `.sync.yml`: its repository (`--template-url`, `--template-ref`), as `status` takes it. */
  readonly templateUrl?: string;
  readonly templateRef?: string;
}

export const MAX_TEXT = 512 * 1024;
/** A template's name is a directory's name: a long one is no template's. */
const MAX_NAME = 256;
/** What `/edit` does to the text: a template's settings section replaced, or the template added or removed. */
const KINDS: readonly string[] = ['settings', 'add', 'remove'];

/** The engine's options for every load and plan of the project, with the `.sync.yml` text being edited. */
export function engineOptions(options: ApiOptions, syncText: string | undefined) {
  return {
    ...(syncText !== undefined ? { syncText } : {}),
    offline: options.offline === true,
    trust: options.trust === true,
    ...(options.strict === false ? { strict: false } : {}),
    ...(options.templateUrl !== undefined ? { templateUrl: options.templateUrl } : {}),
    ...(options.templateRef !== undefined ? { templateRef: options.templateRef } : {}),
  };
}

export interface Body {
  readonly syncText?: string;
  readonly template?: string;
  readonly settings?: Record<string, unknown>;
  readonly kind?: 'settings' | 'add' | 'remove';
  readonly force?: boolean;
  readonly adopt?: boolean;
  readonly base?: unknown;
  readonly preview?: unknown;
}

/** The body of a request of the project's API, its `.sync.yml` text and settings bounded. */
export async function body(c: Context): Promise<Body> {
  const record = await jsonObject(c);
  if (
    record.syncText !== undefined &&
    (typeof record.syncText !== 'string' || record.syncText.length > MAX_TEXT)
  ) {
    throw new BadRequest(`syncText must be a string of at most ${MAX_TEXT} characters`);
  }
  // Each field the type the page sends, or 400 naming it: a number as a template's name was `String()`ed
  // into a section named `undefined` or `[object Object]`, a text as settings became `rubocop: abc`.
  if (
    record.template !== undefined &&
    (typeof record.template !== 'string' || record.template.length > MAX_NAME)
  ) {
    throw new BadRequest(`template must be a template's name: a string of at most ${MAX_NAME} characters`);
  }
  const settings = record.settings;
  if (
    settings !== undefined &&
    (typeof settings !== 'object' || settings === null || Array.isArray(settings))
  ) {
    throw new BadRequest("settings must be a JSON object: each setting's name and its value");
  }
  if (record.kind !== undefined && !KINDS.includes(record.kind as string)) {
    throw new BadRequest(`kind must be one of ${KINDS.join(', ')}`);
  }
  for (const flag of ['force', 'adopt'] as const) {
    if (record[flag] !== undefined && typeof record[flag] !== 'boolean')
      throw new BadRequest(`${flag} must be true or false`);
  }
  // The settings are walked recursively (written as YAML, checked): nesting is bounded as in .sync.yml,
  // where they go one level down, under their template's name.
  if (nestsDeeper(record.settings, MAX_SETTINGS_DEPTH)) {
    throw new BadRequest(
      `settings must not nest arrays and objects deeper than ${MAX_SETTINGS_DEPTH} levels (under their template's name in .sync.yml, ${MAX_YAML_DEPTH})`,
    );
  }
  return record as Body;
}

/** How deep a request's settings may nest: one level less than `.sync.yml`, whose mapping holds them. */
const MAX_SETTINGS_DEPTH = MAX_YAML_DEPTH - 1;

/** The fields a request that edits the text needs: the text, and the template it is about. */
export function editRequest(b: Body): { syncText: string; template: string } {
  if (b.syncText === undefined) throw new BadRequest('syncText is required: the .sync.yml text to edit');
  if (b.template === undefined || b.template === '') {
    throw new BadRequest("template is required: a template's name");
  }
  return { syncText: b.syncText, template: b.template };
}

/** Whether arrays and objects in `value` nest more than `levels` deep (looking no deeper than that). */
function nestsDeeper(value: unknown, levels: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (levels === 0) return true;
  for (const item of Object.values(value)) if (nestsDeeper(item, levels - 1)) return true;
  return false;
}
