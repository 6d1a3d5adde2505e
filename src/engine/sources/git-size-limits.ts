/**
 * Size limits of a git source's checkout (security review 20, finding 6). A repository of a megabyte can
 * name one blob of a gigabyte many times (git stores it once, compressed to almost nothing); checked out,
 * each path is a file of its own, and rendering reads them into memory: 4 GB written and 8 GB of memory
 * for a 1.2 MB repository. The sizes are read from the tree (`git ls-tree -r -l`) before anything is
 * written. No template repository comes near the defaults (pdk-templates: a few MB; GitHub refuses files
 * over 100 MB); `PANTOGRAPH_GIT_FILE_SIZE_LIMIT` and `PANTOGRAPH_GIT_SOURCE_SIZE_LIMIT` (MB) raise them.
 */

export interface GitSizeLimits {
  /** Bytes one file may have. */
  readonly fileBytes: number;
  /** Bytes the files of one checkout may have together. */
  readonly sourceBytes: number;
}

const MB = 1024 * 1024;

export const DEFAULT_GIT_SIZE_LIMITS: GitSizeLimits = { fileBytes: 100 * MB, sourceBytes: 500 * MB };

/** The limits from the environment (megabytes), else the defaults. */
export function gitSizeLimits(env: NodeJS.ProcessEnv): GitSizeLimits {
  const megabytes = (text: string | undefined) => {
    const n = Number(text);
    return text !== undefined && text !== '' && Number.isFinite(n) && n > 0 ? n * MB : undefined;
  };
  return {
    fileBytes: megabytes(env.PANTOGRAPH_GIT_FILE_SIZE_LIMIT) ?? DEFAULT_GIT_SIZE_LIMITS.fileBytes,
    sourceBytes: megabytes(env.PANTOGRAPH_GIT_SOURCE_SIZE_LIMIT) ?? DEFAULT_GIT_SIZE_LIMITS.sourceBytes,
  };
}

/** A file of the tree with its size in bytes. */
export interface TreeFile {
  readonly path: string;
  readonly bytes: number;
}

/** The files (blobs) of `git ls-tree -r -l -z` output; submodules, which checkout writes nothing for, are left out. */
export function treeFiles(listing: string): TreeFile[] {
  const files: TreeFile[] = [];
  for (const entry of listing.split('\0')) {
    // `<mode> SP <type> SP <object> SP+ <size> TAB <path>`: the size is right-aligned.
    const m = /^\d+ blob [0-9a-f]+ +(\d+)\t([\s\S]*)$/.exec(entry);
    if (m) files.push({ path: m[2]!, bytes: Number(m[1]) });
  }
  return files;
}

/** What is wrong with checking out `files` (with what to do), or undefined when they are within `limits`. */
export function sizeProblem(
  files: readonly TreeFile[],
  limits: GitSizeLimits,
): { readonly what: string; readonly hint: string } | undefined {
  const largest = [...files].sort((a, b) => b.bytes - a.bytes);
  const big = largest[0];
  if (big !== undefined && big.bytes > limits.fileBytes) {
    return {
      what: `has a file larger than ${megabytes(limits.fileBytes)} (the limit of one file): ${big.path} is ${megabytes(big.bytes)}`,
      hint: `nothing was checked out; if the repository is meant to hold such a file, raise the limit: PANTOGRAPH_GIT_FILE_SIZE_LIMIT=<MB>`,
    };
  }
  let total = 0;
  for (const f of files) total += f.bytes;
  if (total > limits.sourceBytes) {
    const top = largest.slice(0, 3).map((f) => `${f.path} (${megabytes(f.bytes)})`);
    return {
      what: `is larger than ${megabytes(limits.sourceBytes)} (the limit of one source): its ${files.length} files are ${megabytes(total)} in all, the largest ${top.join(', ')}`,
      hint: `nothing was checked out; if the repository is meant to be that large, raise the limit: PANTOGRAPH_GIT_SOURCE_SIZE_LIMIT=<MB>`,
    };
  }
  return undefined;
}

/** `1,000 MB`, `12.5 MB`, `400 KB` or `3 bytes`. */
function megabytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < MB) return `${Math.round(bytes / 1024)} KB`;
  const mb = bytes / MB;
  return `${mb >= 10 ? Math.round(mb).toLocaleString('en-US') : mb.toFixed(1).replace(/\.0$/, '')} MB`;
}
