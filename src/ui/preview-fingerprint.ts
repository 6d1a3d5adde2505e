/**
 * What ties an apply to the preview the page showed: a fingerprint over what apply would do to each path
 * (its state, and the bytes and mode the templates give it) and the post commands. The apply plans again
 * and compares under the run lock: when a template or a project file changed since the preview, the
 * fingerprints differ and nothing is written that the user did not see. The server remembers the last
 * previews' per-path summaries, so that a refusal can name the paths that changed.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RenderPlan } from '../engine/render-plan.js';
import type { StatusEntry } from '../sync/index.js';
import { Refused } from './request.js';

/** Path -> what apply would do to it, as one string. */
export type Outcome = ReadonlyMap<string, string>;

/** The post commands' key in an {@link Outcome} (no path starts with a NUL). */
const POST = '\0post commands';

/**
 * The states in which apply (with `force`, or once confirmed) replaces or removes what is on disk: their
 * content on disk is part of the outcome, so that an edit made after the preview is never overwritten
 * unseen (with `force` it would be, keeping only a `.pantograph-old` copy).
 */
const REPLACES_DISK = new Set(['edited', 'conflict', 'adopt', 'purge', 'delete']);

/** What apply would do to every path, from the plan and the status of the project against it. */
export function outcomeOf(plan: RenderPlan, entries: readonly StatusEntry[]): Outcome {
  const files = new Map(plan.files.map((f) => [f.path, f]));
  const outcome = new Map<string, string>();
  for (const entry of entries) {
    const file = files.get(entry.path);
    const output =
      file === undefined
        ? '-'
        : file.empty
          ? 'empty'
          : `${file.hash ?? sha256(file.content)} ${file.mode.toString(8)}`;
    const disk = REPLACES_DISK.has(entry.state) ? ` ${diskHash(plan.projectRoot, entry.path)}` : '';
    outcome.set(entry.path, `${entry.state} ${entry.template ?? '-'} ${entry.kind ?? '-'} ${output}${disk}`);
  }
  if (plan.post.length > 0) outcome.set(POST, JSON.stringify(plan.post));
  return outcome;
}

export function fingerprintOf(outcome: Outcome): string {
  const hash = createHash('sha256');
  for (const key of [...outcome.keys()].sort()) hash.update(`${key}\t${outcome.get(key)}\n`);
  return hash.digest('hex');
}

/** The outcomes of the last previews shown, by fingerprint. */
export class Previews {
  private readonly shown = new Map<string, Outcome>();

  constructor(private readonly keep = 8) {}

  /** Records a preview; gives its fingerprint. */
  remember(outcome: Outcome): string {
    const fingerprint = fingerprintOf(outcome);
    this.shown.delete(fingerprint);
    this.shown.set(fingerprint, outcome);
    for (const oldest of this.shown.keys()) {
      if (this.shown.size <= this.keep) break;
      this.shown.delete(oldest);
    }
    return fingerprint;
  }

  /**
   * Refuses (409) unless `now` is what the preview of `fingerprint` showed, naming the paths that changed
   * when the preview is one this server showed.
   */
  check(fingerprint: string | undefined, now: Outcome): void {
    if (fingerprint !== undefined && fingerprintOf(now) === fingerprint) return;
    const changed = fingerprint === undefined ? undefined : this.changedSince(fingerprint, now);
    const hint = 'look at the preview again (the page shows the new one), then apply';
    if (changed === undefined) {
      throw new Refused(
        'PREVIEW_CHANGED',
        'apply would write what no preview showed: nothing was written',
        hint,
      );
    }
    const named =
      changed.length > 5
        ? `${changed.slice(0, 5).join(', ')} and ${changed.length - 5} more`
        : changed.join(', ');
    throw new Refused(
      'PREVIEW_CHANGED',
      `what apply would do changed since the preview (${named}): nothing was written`,
      hint,
      changed,
    );
  }

  /**
   * The paths whose outcome differs from the preview's (sorted; the post commands as `post commands`), or
   * undefined when the preview is not one this server showed (a restarted server, a forged fingerprint).
   */
  changedSince(fingerprint: string, now: Outcome): string[] | undefined {
    const then = this.shown.get(fingerprint);
    if (then === undefined) return undefined;
    const keys = new Set([...then.keys(), ...now.keys()]);
    return [...keys]
      .filter((k) => then.get(k) !== now.get(k))
      .map((k) => (k === POST ? 'post commands' : k))
      .sort();
  }
}

/** The hash of a project file's bytes; `-` when it cannot be read (the status has said why). */
function diskHash(root: string, path: string): string {
  try {
    return sha256(readFileSync(join(root, path)));
  } catch {
    return '-';
  }
}

function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}
