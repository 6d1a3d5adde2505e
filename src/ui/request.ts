/**
 * What both APIs of the web interface (the project's, api.ts; the author's, author-api.ts) do with a
 * request body and with an error: a body is a JSON object or a 400 saying so, and every error is a JSON
 * answer with a message. A stack trace is for a bug (500), never for bad input.
 */
import { isAbsolute, relative } from 'node:path';
import type { Context } from 'hono';
import { EngineError } from '../engine/errors.js';
import type { Problem } from '../engine/render-plan.js';
import { SyncError } from '../sync/index.js';
import { restartHint } from './restart-hint.js';

/** A request the API cannot take: its message says what is wrong with it. Answered with 400. */
export class BadRequest extends Error {}

/**
 * A request refused because the project is not what the page based it on (409): `code` says what changed,
 * `hint` what to do, `changed` lists the paths when there are some.
 */
export class Refused extends Error {
  constructor(
    readonly code: 'SYNC_CHANGED' | 'PREVIEW_CHANGED' | 'FILE_CHANGED' | 'ADOPT_UNCONFIRMED',
    message: string,
    readonly hint: string,
    readonly changed: readonly string[] = [],
  ) {
    super(message);
  }
}

/** The request's body as an object; 400 when it is not JSON, or is JSON but not an object. */
export async function jsonObject(c: Context): Promise<Record<string, unknown>> {
  let data: unknown;
  try {
    data = await c.req.json();
  } catch {
    throw new BadRequest('the body must be JSON');
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    throw new BadRequest('the body must be a JSON object');
  return data as Record<string, unknown>;
}

/** A string field of at most `max` characters, or 400 naming it. */
export function stringField(record: Record<string, unknown>, name: string, max: number): string {
  const value = record[name];
  if (typeof value !== 'string' || value.length > max)
    throw new BadRequest(`${name} must be a string of at most ${max} characters`);
  return value;
}

/** The JSON answer of an error: 400, 409, 422 with the problems, or 500 for a bug (its stack logged). */
export function errorAnswer(e: Error, c: Context, root?: string): Response {
  if (e instanceof BadRequest) return c.json({ error: e.message }, 400);
  if (e instanceof Refused) {
    return c.json({ ok: false, code: e.code, error: e.message, hint: e.hint, changed: e.changed }, 409);
  }
  if (e instanceof EngineError) {
    const hint = restartHint(e);
    const problems = e.problems.map((p) => problemJson(p, root));
    return c.json({ error: e.message, problems, ...(hint !== undefined ? { hint } : {}) }, 422);
  }
  // Another run holds the project (a `pantograph apply` in a terminal: 409), or a file is not as expected.
  if (e instanceof SyncError) {
    const answer = { error: e.message, code: e.code, ...(e.hint ? { hint: e.hint } : {}) };
    return c.json(answer, e.code === 'SYNC_LOCKED' ? 409 : 422);
  }
  console.error(e);
  return c.json({ error: `internal error: ${e.message}` }, 500);
}

/**
 * A problem as the page shows it: a file inside `root` named relative to it (`.sync.yml:7:11`, as the
 * command line prints it in the project), not by its absolute path.
 */
export function problemJson(p: Problem, root?: string): Record<string, unknown> {
  if (root === undefined || typeof p.file !== 'string' || !isAbsolute(p.file)) return { ...p };
  const inside = relative(root, p.file);
  return inside.startsWith('..') || isAbsolute(inside) ? { ...p } : { ...p, file: inside };
}

/** `problemJson` for the problems of one project or repository. */
export const problemsIn = (root: string) => (p: Problem) => problemJson(p, root);
