/**
 * Conflicts stop a run before anything else is written. For each, the new template output goes to
 * `<path>.pantograph-new`; when the engine can reproduce the previous output, the file itself gets a
 * three-way merge (`git merge-file`). A later `resolve <path>` accepts the user's result.
 */
import type { ApplyOptions } from './apply.js';
import { unifiedDiff } from './diff.js';
import { mergeFile } from './merge.js';
import { derivedPath, NEW_SUFFIX } from './paths.js';
import type { Item, Scan } from './status.js';
import { plural } from './text.js';
import { writeFileAtomic } from './write.js';

export interface ConflictResult {
  readonly path: string;
  readonly template?: string;
  /**
   * `merged`: the file now holds a three-way merge (`conflicts` hunks marked); `new-file`: the new output
   * is in `<path>.pantograph-new`; `pending`: an earlier run already did one of these and it awaits
   * `resolve`; `none` under noop (nothing written). Except under noop, `newFile` holds the new output.
   */
  readonly resolution: 'merged' | 'new-file' | 'pending' | 'none';
  readonly conflicts?: number;
  readonly newFile: string;
  /**
   * Under noop, the resolution apply would take (`merged`, with `conflicts`; `new-file`; `pending`), so
   * that `apply --noop` says what apply would do.
   */
  readonly planned?: 'merged' | 'new-file' | 'pending';
  /**
   * With `diff`: what apply writes (or would write): the file to its merge, else `<path>.pantograph-new`
   * to the new output. Not the diff to the template output, which only `--force` would write.
   */
  readonly diff?: string;
}

export async function stopOnConflicts(
  s: Scan,
  conflicting: readonly Item[],
  noop: boolean,
  options: {
    readonly durable?: boolean;
    readonly diff?: boolean;
    readonly previousOutput?: ApplyOptions['previousOutput'];
  },
): Promise<{ conflicts: ConflictResult[]; message: string }> {
  const results: ConflictResult[] = [];
  let pendingCount = 0;
  for (const item of conflicting) {
    const file = item.planned!.file;
    const newFile = derivedPath(item.path, NEW_SUFFIX);
    const base = { path: item.path, template: file.template, newFile };
    const before = s.target.read(newFile);
    const pending = before.kind === 'file';
    if (pending) pendingCount++;
    if (!noop) writeFileAtomic(s.root, newFile, file.content, file.mode, options.durable === true);
    const newFileDiff = () =>
      options.diff === true
        ? { diff: unifiedDiff(newFile, before.kind === 'file' ? before.content : undefined, file.content) }
        : {};
    // An earlier run already merged or wrote the new output: merging again would nest the merges.
    if (pending) {
      results.push({
        ...base,
        ...(noop
          ? { resolution: 'none' as const, planned: 'pending' as const }
          : { resolution: 'pending' as const }),
        ...newFileDiff(),
      });
      continue;
    }
    // Under noop the merge is made all the same (in a temporary directory), to show what apply would write.
    const previous = options.previousOutput ? await options.previousOutput(item.path) : undefined;
    const merged =
      previous && item.disk.kind === 'file'
        ? mergeFile(item.path, item.disk.content, previous, file.content)
        : undefined;
    if (merged && item.disk.kind === 'file') {
      if (!noop) writeFileAtomic(s.root, item.path, merged.content, item.disk.mode, options.durable === true);
      results.push({
        ...base,
        ...(noop
          ? { resolution: 'none' as const, planned: 'merged' as const }
          : { resolution: 'merged' as const }),
        conflicts: merged.conflicts,
        ...(options.diff === true ? { diff: unifiedDiff(item.path, item.disk.content, merged.content) } : {}),
      });
    } else {
      results.push({
        ...base,
        ...(noop
          ? { resolution: 'none' as const, planned: 'new-file' as const }
          : { resolution: 'new-file' as const }),
        ...newFileDiff(),
      });
    }
  }
  const message = noop
    ? pendingCount === results.length
      ? `${plural(results.length, 'conflict')} awaiting \`pantograph resolve\`: apply would write nothing else`
      : `${plural(results.length, 'conflict')}: apply would write the new template output beside ${results.length === 1 ? 'it' : 'each'} (<path>${NEW_SUFFIX}), merge it into the file where it can, and write nothing else`
    : `${plural(results.length, 'conflict')}: nothing else was written. Finish each file's merge (where it was merged in place, what conflicts is between <<<<<<< and >>>>>>>; the new template output alone is in <path>${NEW_SUFFIX}), then run \`pantograph resolve <path>\`, or apply with --force to overwrite`;
  return { conflicts: results, message };
}

/**
 * What became of a conflict, in words (`merged cleanly with the new template output: review it`): what the
 * command line prints after its path, and the web interface too.
 */
export function conflictText(c: ConflictResult): string {
  switch (c.resolution) {
    case 'merged':
      return c.conflicts
        ? `merged with the new template output, ${plural(c.conflicts, 'conflict')} marked in the file`
        : 'merged cleanly with the new template output: review it';
    case 'new-file':
      return `the new template output is in ${c.newFile}`;
    case 'pending':
      return `still awaiting \`pantograph resolve ${c.path}\` (new output in ${c.newFile})`;
    case 'none':
      return wouldText(c);
  }
}

/** Under noop: what apply would do with the conflict. */
function wouldText(c: ConflictResult): string {
  switch (c.planned) {
    case 'merged':
      return c.conflicts
        ? `changed by hand and by the templates: apply would merge them, ${plural(c.conflicts, 'conflict')} marked in the file`
        : 'changed by hand and by the templates: apply would merge them cleanly';
    case 'new-file':
      return `changed by hand and by the templates: apply would write the new template output to ${c.newFile}`;
    case 'pending':
      return `still awaiting \`pantograph resolve ${c.path}\` (new output in ${c.newFile})`;
    default:
      return 'changed by hand, and the template output changed too';
  }
}
