/** Three-way merge of a conflicting file with `git merge-file` (the system git). */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { childProcess } from '../shared/builtins.js';

export interface MergeResult {
  readonly content: Buffer;
  /** Number of conflict hunks left (marked with `<<<<<<<`); 0 for a clean merge. */
  readonly conflicts: number;
}

/**
 * Merges the user's file (`ours`) and the new output (`theirs`) from the previous output (`base`).
 * Undefined when git is not available or fails.
 */
export function mergeFile(
  path: string,
  ours: Uint8Array,
  base: Uint8Array,
  theirs: Uint8Array,
): MergeResult | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'pantograph-merge-'));
  try {
    writeFileSync(join(dir, 'ours'), ours);
    writeFileSync(join(dir, 'base'), base);
    writeFileSync(join(dir, 'theirs'), theirs);
    const run = childProcess().spawnSync(
      'git',
      [
        'merge-file',
        '-p',
        '-L',
        `${path} (yours)`,
        '-L',
        `${path} (previous template output)`,
        '-L',
        `${path} (new template output)`,
        'ours',
        'base',
        'theirs',
      ],
      { cwd: dir, maxBuffer: 256 * 1024 * 1024 },
    );
    if (run.error || run.status === null || run.status < 0 || run.status > 127) return undefined;
    return { content: run.stdout, conflicts: run.status };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
