/**
 * A request of the project's API (api.ts, writes.ts): its body, with the `.sync.yml` text being edited and
 * the settings bounded, and the engine's options it is planned with.
 */
import type { Context } from 'hono';
import { MAX_JSON_DEPTH } from '../epp/json-values.js';
import { BadRequest, jsonObject } from './request.js';

export interface ApiOptions {
  readonly root: string;
  /** Engine options for every load (offline, trust). */
  readonly offline?: boolean;
  readonly trust?: boolean;
}

export const MAX_TEXT = 512 * 1024;

/** The engine's options for every load and plan of the project, with the `.sync.yml` text being edited. */
export function engineOptions(options: ApiOptions, syncText: string | undefined) {
  return {
    ...(syncText !== undefined ? { syncText } : {}),
    offline: options.offline === true,
    trust: options.trust === true,
  };
}

export interface Body {
  readonly syncText?: string;
  readonly template?: unknown;
  readonly settings?: unknown;
  readonly kind?: unknown;
  readonly force?: unknown;
  readonly adopt?: unknown;
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
