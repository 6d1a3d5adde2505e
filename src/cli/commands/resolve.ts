/**
 * `pantograph resolve <path>`: accepts the user's content of a managed file, typically after merging a
 * conflict: the pending `<path>.pantograph-new` becomes the new template baseline and is removed. Content
 * that differs from the template output is kept as the user's: a later template change to it is a
 * conflict again, never overwritten silently.
 */
import { resolve as syncResolve } from '../../sync/index.js';
import type { Io } from '../io.js';
import type { GlobalOptions } from '../main.js';
import { printJson, projectDir } from '../report.js';

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
  const result = syncResolve(projectDir(io, global), clean, { force: flags.force === true });
  if (global.format === 'json') {
    printJson(io, result);
    return 0;
  }
  const what = result.hadNewFile ? `; removed ${clean}.pantograph-new` : '';
  io.out(
    result.differsFromTemplate
      ? `resolved ${clean}: your content is kept${what}. A later change of its template output is reported as a conflict.\n`
      : `resolved ${clean}: it matches the template output${what}.\n`,
  );
  return 0;
}
