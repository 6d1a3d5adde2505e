/**
 * `pantograph resolve <path>`: accepts the user's content of a managed file, typically after merging a
 * conflict: the pending `<path>.pantograph-new` becomes the new template baseline and is removed. Content
 * that differs from the template output is kept as the user's: a later template change to it is a
 * conflict again, never overwritten silently.
 */
import { lstatSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { keepMergeBase } from '../../engine/merge-bases.js';
import { resolve as syncResolve } from '../../sync/index.js';
import { derivedPath, NEW_SUFFIX } from '../../sync/paths.js';
import { type Io, sayOut } from '../io.js';
import type { GlobalOptions } from '../main.js';
import { lockedProjectDir, printJson } from '../report.js';

export interface ResolveFlags {
  readonly force?: boolean;
}

export async function resolve(
  io: Io,
  global: GlobalOptions,
  path: string,
  flags: ResolveFlags,
): Promise<number> {
  const clean = path.replace(/\\/g, '/').replace(/^(\.\/)+/, '');
  const root = lockedProjectDir(io, global);
  const newOutput = pendingOutput(root, clean);
  const result = syncResolve(root, clean, { force: flags.force === true });
  // The accepted template output is the base of the next merge of this file (see merge-bases.ts).
  if (result.hadNewFile && newOutput !== undefined) keepMergeBase(newOutput);
  if (global.format === 'json') {
    printJson(io, result);
    return 0;
  }
  const what = result.hadNewFile ? `; removed ${clean}.pantograph-new` : '';
  sayOut(
    io,
    result.differsFromTemplate
      ? `resolved ${clean}: your content is kept${what}. A later change of its template output is reported as a conflict.\n`
      : `resolved ${clean}: it matches the template output${what}.\n`,
  );
  return 0;
}

/** The content of `<path>.pantograph-new` (shortened as sync names it) when it is a regular file (sync's resolve checks the path). */
function pendingOutput(root: string, path: string): Buffer | undefined {
  const file = join(root, derivedPath(path, NEW_SUFFIX));
  try {
    return lstatSync(file).isFile() ? readFileSync(file) : undefined;
  } catch {
    return undefined;
  }
}
