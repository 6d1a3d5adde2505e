/**
 * `pantograph remove [--force] [--noop]`: deletes the files Pantograph manages and the directories it created once
 * empty, and then the lock (kept while files remain in it). `init` files (written once for the new
 * project) are kept; so are files with the user's changes (changed by hand, or accepted with `resolve`),
 * which stay managed and are listed with what to do, unless `--force` removes them too, saving each first.
 * Keeping them is what was asked, not a failure: exit 0. `--noop` says the same of what a run would do,
 * removing nothing.
 */
import { type KeptEdit, remove as syncRemove } from '../../sync/index.js';
import { type Io, sayOut } from '../io.js';
import type { GlobalOptions } from '../main.js';
import { lockedProjectDir, plural, printJson } from '../report.js';

export interface RemoveFlags {
  readonly force?: boolean;
  readonly noop?: boolean;
}

const KEPT_BECAUSE: Readonly<Record<KeptEdit['reason'], string>> = {
  edited: 'changed by hand',
  resolved: 'your content, accepted with `pantograph resolve`',
};

/** The words of a run and of a `--noop` one (which says what the run would do, as `apply --noop` does). */
const WORDS = {
  run: { removed: 'removed   ', kept: 'kept      ', saved: 'is saved', summary: 'removed' },
  noop: { removed: 'remove    ', kept: 'keep      ', saved: 'would be saved', summary: 'Would have removed' },
} as const;

export async function remove(io: Io, global: GlobalOptions, flags: RemoveFlags): Promise<number> {
  const noop = flags.noop === true;
  const result = syncRemove(lockedProjectDir(io, global), { force: flags.force === true, noop });
  if (global.format === 'json') {
    printJson(io, noop ? { noop, ...result } : result);
    return 0;
  }
  const words = WORDS[noop ? 'noop' : 'run'];
  const backups = new Map(result.backups.map((b) => [b.path, b.backup]));
  for (const path of result.removed) {
    const backup = backups.get(path);
    sayOut(
      io,
      `${words.removed}${path}${backup ? `  (changed by hand: your version ${words.saved} as ${backup})` : ''}\n`,
      10,
    );
  }
  for (const dir of result.directoriesRemoved) io.out(`${words.removed}${dir}/\n`);
  for (const { path, reason } of result.keptEdited)
    sayOut(io, `${words.kept}${path}  (${KEPT_BECAUSE[reason]})\n`, 10);
  for (const path of result.kept)
    sayOut(io, `${words.kept}${path}  (init file: yours since the project was created)\n`, 10);
  const keptCount = result.kept.length + result.keptEdited.length;
  const dirs = result.directoriesRemoved.length;
  sayOut(
    io,
    result.removed.length === 0 && keptCount === 0
      ? 'nothing to remove: Pantograph manages no file here\n'
      : `${words.summary} ${plural(result.removed.length, 'file')} and ${dirs} director${dirs === 1 ? 'y' : 'ies'}, kept ${plural(keptCount, 'file')}\n`,
  );
  const edits = result.keptEdited.length;
  if (edits > 0) {
    sayOut(
      io,
      `${plural(edits, 'file')} with your changes ${edits === 1 ? 'is' : 'are'} still managed: \`pantograph remove --force\` removes ${edits === 1 ? 'it' : 'them'} too, saving your version as <path>.pantograph-old first\n`,
    );
  }
  return 0;
}
