/**
 * Walking a template's directories (see repository.ts): regular files, following symlinks that stay inside
 * the template's repository, and the small file-system helpers of loading a template.
 */
import { lstatSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';
import { exists } from '../shared/path-exists.js';
import { identityOf } from '../sync/digests.js';
import { problem } from './errors.js';
import type { Position } from './model.js';
import type { Problem } from './render-plan.js';

interface WalkedFile {
  /** POSIX path relative to the template directory, e.g. `files/bin/run.sh`. */
  readonly rel: string;
  readonly abs: string;
  readonly executable: boolean;
  /** The file's stat identity when listed (a link's target's): see sync/digests.ts. */
  readonly identity: string;
}

/** Lists regular files under a template subdirectory, following symlinks that stay in the repository. */
export class TreeWalker {
  constructor(
    private readonly repoRoot: string,
    private readonly problems: Problem[],
  ) {}

  list(templateDir: string, sub: string): WalkedFile[] {
    const out: WalkedFile[] = [];
    const start = join(templateDir, sub);
    if (!exists(start)) return out;
    const real = this.follow(start);
    if (real !== undefined && statSync(real).isDirectory()) this.walk(start, real, sub, out, new Set());
    return out.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
  }

  /**
   * Walks `dir`, whose real path is `real`. Only symlinks are resolved (and checked to stay in the
   * repository): the real path of anything else is its real parent's joined with its name, so a template
   * of 10,000 files costs a directory read and one stat per file (for the executable bit), not a
   * `realpath` of every file.
   */
  private walk(dir: string, real: string, rel: string, out: WalkedFile[], seen: ReadonlySet<string>): void {
    if (seen.has(real)) return; // a symlink loop inside the repository
    const inner = new Set(seen).add(real);
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      const childRel = `${rel}/${entry.name}`;
      if (entry.isSymbolicLink()) {
        const target = this.follow(path);
        if (target === undefined) continue;
        const st = statSync(target);
        if (st.isDirectory()) this.walk(path, target, childRel, out, inner);
        else if (st.isFile())
          out.push({
            rel: childRel,
            abs: path,
            executable: (st.mode & 0o111) !== 0,
            identity: identityOf(st),
          });
      } else if (entry.isDirectory()) {
        this.walk(path, join(real, entry.name), childRel, out, inner);
      } else if (entry.isFile()) {
        const stat = lstatSync(path);
        out.push({
          rel: childRel,
          abs: path,
          executable: (stat.mode & 0o111) !== 0,
          identity: identityOf(stat),
        });
      }
    }
  }

  /** The real path of `path`; undefined (and a problem) for a dangling link or one leaving the repository. */
  follow(path: string): string | undefined {
    if (!lstatSync(path).isSymbolicLink()) return realpathOrSelf(path);
    let real: string;
    try {
      real = realpathSync.native(path);
    } catch {
      this.problems.push(problem('error', 'TEMPLATE_SYMLINK', `symlink ${path} points to nothing`, at(path)));
      return undefined;
    }
    if (!inside(real, this.repoRoot)) {
      this.problems.push(
        problem(
          'error',
          'TEMPLATE_SYMLINK',
          `symlink ${path} points outside the template repository (${real})`,
          at(path),
          'templates may only link to files of their own repository',
        ),
      );
      return undefined;
    }
    return real;
  }
}
/** A position at the start of a file (for problems about a whole file). */
export function at(file: string): Position {
  return { file, line: 1, column: 1 };
}

/** The native realpath: one system call, where the JavaScript one lstats every component. */
export function realpathOrSelf(path: string): string {
  try {
    return realpathSync.native(path);
  } catch {
    return path;
  }
}

export function inside(path: string, root: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}
