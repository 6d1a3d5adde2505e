/**
 * The two requests of the project's API that write: `save` (`.sync.yml`) and `apply` (`.sync.yml`, then
 * what apply writes). Each says what it is based on, and is refused with 409, nothing written, when the
 * project is no longer that: `base`, the `.sync.yml` the page loaded (sync-base.ts), and for apply
 * `preview`, the fingerprint of the preview the page showed (preview-fingerprint.ts). Text with errors is
 * refused with 422 and the problems, as the command line's apply refuses it, and nothing is written.
 */
import { Hono } from 'hono';
import { previousOutputFor } from '../engine/previous-output.js';
import { planProjectAt } from '../engine/project-plan.js';
import type { Problem } from '../engine/render-plan.js';
import { hasErrors } from '../engine/validate.js';
import { conflictText, apply as syncApply } from '../sync/index.js';
import { plural } from '../sync/text.js';
import { outcomeOf, type Previews } from './preview-fingerprint.js';
import { type ApiOptions, type Body, body, engineOptions } from './project-request.js';
import { BadRequest, problemsIn, Refused, stringField } from './request.js';
import { checkBase, writeSyncText } from './sync-base.js';

export function writes(options: ApiOptions, previews: Previews): Hono {
  const app = new Hono();
  const { root } = options;
  const oneAtATime = serial();

  /** Writes `.sync.yml` (atomically), once it loads and plans without errors and is still the base. */
  app.post('/save', (c) =>
    oneAtATime(async () => {
      const { syncText, base } = writeRequest(await body(c));
      const { plan } = await planProjectAt(root, engineOptions(options, syncText));
      if (hasErrors(plan.problems)) {
        const errors = plan.problems.filter((p) => p.severity === 'error');
        const problems = errors.map(problemsIn(options.root));
        return c.json({ saved: false, error: planErrors(plan.problems), problems }, 422);
      }
      checkBase(root, base);
      return c.json({ saved: true, base: writeSyncText(root, syncText) });
    }),
  );

  /**
   * Saves the text and applies, with apply's safety: conflicts reported, hand edits kept unless `force`.
   * Under the run lock, before anything is written, the project must still be what the page based its
   * edit on and what its preview showed; `.sync.yml` is written there too.
   */
  app.post('/apply', (c) =>
    oneAtATime(async () => {
      const b = await body(c);
      const { syncText, base } = writeRequest(b);
      const preview =
        b.preview === undefined ? undefined : stringField(b as Record<string, unknown>, 'preview', 64);
      const force = b.force === true;
      // The page's answer to "overwrite the files Pantograph never wrote?" (`apply --yes`); asked after a
      // first apply is refused for them, as the command line refuses without a terminal to ask on.
      const adopt = force || b.adopt === true;
      checkBase(root, base); // at once, before the planning work
      const loaded = await planProjectAt(root, engineOptions(options, syncText));
      if (hasErrors(loaded.plan.problems)) {
        const problems = loaded.plan.problems.map(problemsIn(options.root));
        return c.json({ ok: false, message: planErrors(loaded.plan.problems), problems }, 422);
      }
      let newBase = base;
      const result = await syncApply(loaded.plan, {
        force,
        confirm: () => adopt,
        digests: loaded.digests,
        ...(loaded.lock
          ? { previousOutput: previousOutputFor(loaded.root, loaded.lock, loaded.options) }
          : {}),
        beforeChanges: (entries) => {
          checkBase(root, base);
          previews.check(preview, outcomeOf(loaded.plan, entries));
          const unconfirmed = adopt ? [] : entries.filter((e) => e.state === 'adopt').map((e) => e.path);
          if (unconfirmed.length > 0) {
            const n = unconfirmed.length;
            throw new Refused(
              'ADOPT_UNCONFIRMED',
              `${n === 1 ? '1 file exists and differs' : `${n} files exist and differ`} from the template output, and Pantograph never wrote ${n === 1 ? 'it' : 'them'}: nothing was written`,
              'review the diffs in the preview, then confirm to overwrite them (as `apply --yes`), or tick overwrite hand edits (`--force`)',
              unconfirmed,
            );
          }
          newBase = writeSyncText(root, syncText);
        },
      });
      return c.json({
        ok: result.ok,
        message: result.message,
        written: result.written,
        removed: result.removed,
        skipped: result.skipped,
        backups: result.backups,
        conflicts: result.conflicts.map((x) => x.path),
        // What became of each (merged in place, or the new output beside it), as `apply` says it.
        conflictNotes: result.conflicts.map((x) => ({ path: x.path, note: conflictText(x) })),
        base: newBase,
      });
    }),
  );
  return app;
}

/** Why a write with errors in its plan wrote nothing, in the words of `apply`. */
function planErrors(problems: readonly Problem[]): string {
  const errors = problems.filter((p) => p.severity === 'error').length;
  return `${plural(errors, 'error')} in the plan: nothing was written`;
}

/** What both writes need: the text to write, and the base it was edited from. */
function writeRequest(b: Body): { syncText: string; base: string } {
  if (typeof b.syncText !== 'string')
    throw new BadRequest('syncText is required: the .sync.yml text to write');
  if (typeof b.base !== 'string' || b.base.length > 64) {
    throw new BadRequest(
      'base is required: the `base` /api/state gave with the .sync.yml text the page loaded (or a save gave)',
    );
  }
  return { syncText: b.syncText, base: b.base };
}

/** Runs writes one after another: two requests never plan and write interleaved. */
function serial(): <T>(work: () => Promise<T>) => Promise<T> {
  let last: Promise<unknown> = Promise.resolve();
  return (work) => {
    const run = last.then(work, work);
    last = run.catch(() => undefined);
    return run;
  };
}
