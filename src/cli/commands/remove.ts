/**
 * `pantograph remove [--force]`: deletes the files Pantograph manages and the directories it created once
 * empty, and then the lock (kept only while `init` files remain in it). Hand-edited files stop it before
 * anything is removed, unless `--force`; `init` files (written once for the new project) are kept.
 */
import { remove as syncRemove } from '../../sync/index.js';
import type { Io } from '../io.js';
import type { GlobalOptions } from '../main.js';
import { plural, printJson, projectDir } from '../report.js';

export interface RemoveFlags {
  readonly force?: boolean;
}

export async function remove(io: Io, global: GlobalOptions, flags: RemoveFlags): Promise<number> {
  const result = syncRemove(projectDir(io, global), { force: flags.force === true });
  if (global.format === 'json') {
    printJson(io, result);
    return 0;
  }
  const backups = new Map(result.backups.map((b) => [b.path, b.backup]));
  for (const path of result.removed) {
    const backup = backups.get(path);
    io.out(`removed   ${path}${backup ? `  (changed by hand: your version is saved as ${backup})` : ''}\n`);
  }
  for (const dir of result.directoriesRemoved) io.out(`removed   ${dir}/\n`);
  for (const path of result.kept)
    io.out(`kept      ${path}  (init file: yours since the project was created)\n`);
  io.out(
    result.removed.length === 0 && result.kept.length === 0
      ? 'nothing to remove: Pantograph manages no file here\n'
      : `removed ${plural(result.removed.length, 'file')} and ${result.directoriesRemoved.length} director${result.directoriesRemoved.length === 1 ? 'y' : 'ies'}, kept ${plural(result.kept.length, 'file')}\n`,
  );
  return 0;
}
