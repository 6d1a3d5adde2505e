/**
 * Typed errors of `src/sync`. Each carries a stable `code`, the project-relative `path` it is about (when
 * any) and a `hint` saying what to do. Nothing in the project has been changed when one is thrown before
 * the write phase; errors thrown during it say so in their message.
 */
export type SyncErrorCode =
  // output paths
  | 'SYNC_PATH_INVALID'
  | 'SYNC_PATH_RESERVED'
  | 'SYNC_SYMLINK'
  | 'SYNC_NOT_A_DIRECTORY'
  | 'SYNC_IS_DIRECTORY'
  | 'SYNC_NOT_REGULAR'
  | 'SYNC_UNREADABLE'
  | 'SYNC_TOO_LARGE'
  | 'SYNC_CHANGED'
  // the run
  | 'SYNC_PLAN_INVALID'
  | 'SYNC_PROJECT_MISSING'
  | 'SYNC_LOCKED'
  | 'SYNC_LOCK_INVALID'
  | 'SYNC_WRITE_FAILED'
  | 'SYNC_NOT_WRITABLE'
  | 'SYNC_NOT_CONVERGED'
  | 'SYNC_INTERRUPTED'
  // resolve and remove
  | 'SYNC_NOT_MANAGED'
  | 'SYNC_CONFLICT_MARKERS';

/** Where in a file of the project's (the lock file) a problem is: 1-based line and column. */
export interface SyncPosition {
  readonly file: string;
  readonly line: number;
  readonly column: number;
}

export class SyncError extends Error {
  override name = 'SyncError';
  readonly path: string | undefined;
  readonly hint: string | undefined;
  readonly position: SyncPosition | undefined;

  constructor(
    readonly code: SyncErrorCode,
    message: string,
    options: { path?: string; hint?: string; cause?: unknown; position?: SyncPosition } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.path = options.path;
    this.hint = options.hint;
    this.position = options.position;
  }
}

/** The `code` of a Node system error (`ENOENT`, `EACCES`...), or undefined. */
export function errnoCode(error: unknown): string | undefined {
  if (typeof error === 'object' && error !== null && 'code' in error) {
    const code = (error as { code: unknown }).code;
    return typeof code === 'string' ? code : undefined;
  }
  return undefined;
}
