/**
 * Temporary directories built from inline objects, and directory snapshots to prove nothing was written.
 */
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** A file's content, or a file with a mode, or a symlink. Keys are POSIX paths relative to the root. */
export type TreeEntry =
  | string
  | Uint8Array
  | { content: string | Uint8Array; mode: number }
  | { symlink: string };
export type Tree = Record<string, TreeEntry>;

const created: string[] = [];

/** A new empty directory, removed by `removeTempDirs()`. */
export function tempDir(prefix = 'pantograph-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  created.push(dir);
  return dir;
}

/** Removes every directory `tempDir` made (call from `afterEach`/`afterAll`). */
export function removeTempDirs(): void {
  for (const dir of created.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** Writes `tree` under `root` (creating directories) and returns `root`. */
export function writeTree(root: string, tree: Tree): string {
  for (const [rel, entry] of Object.entries(tree)) {
    const path = join(root, rel);
    mkdirSync(dirname(path), { recursive: true });
    if (typeof entry === 'object' && 'symlink' in entry) symlinkSync(entry.symlink, path);
    else if (typeof entry === 'object' && 'mode' in entry) {
      writeFileSync(path, entry.content);
      chmodSync(path, entry.mode);
    } else writeFileSync(path, entry);
  }
  return root;
}

/** A temp directory holding `tree`. */
export function tempTree(tree: Tree, prefix?: string): string {
  return writeTree(tempDir(prefix), tree);
}

/** Every entry under `dir` with its mode and content (symlinks by target): compare before and after. */
export function snapshotDir(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string) => {
    for (const name of readdirSync(join(dir, rel)).sort()) {
      const r = rel ? `${rel}/${name}` : name;
      const st = lstatSync(join(dir, r));
      if (st.isDirectory()) {
        out[`${r}/`] = st.mode.toString(8);
        walk(r);
      } else if (st.isSymbolicLink()) out[r] = 'symlink';
      else out[r] = `${st.mode.toString(8)} ${readFileSync(join(dir, r)).toString('base64')}`;
    }
  };
  walk('');
  return out;
}
