/**
 * The RenderPlan: what the engine decided to write, as pure data. `src/sync` consumes it; nothing here
 * touches the project.
 */

/** A problem found while loading or planning; errors stop `apply`, warnings are reported. */
export interface Problem {
  readonly severity: 'error' | 'warning';
  /** Stable machine-readable code, e.g. `SYNC_UNKNOWN_KEY`, `EPP_SYNTAX`. */
  readonly code: string;
  readonly message: string;
  /** Absolute or project-relative file the problem points at, when any. */
  readonly file?: string;
  readonly line?: number;
  readonly column?: number;
  /** What to do about it. */
  readonly hint?: string;
}

export interface PlannedFile {
  /** Project-relative POSIX path of the output (`.epp` already dropped). */
  readonly path: string;
  /** The bytes to write. Empty (or whitespace-only) rendered output means "no file": see `empty`. */
  readonly content: Uint8Array;
  /** File mode bits to write (0o644 or 0o755). */
  readonly mode: number;
  /** Name of the template that produced it. */
  readonly template: string;
  /** Path of the source file inside the template (e.g. `files/Gemfile.epp`). */
  readonly source: string;
  /** `files` output is kept in line; `init` output (files_init/) is written once, only if missing. */
  readonly kind: 'file' | 'init';
  /** True when the rendered output was empty or whitespace only: the file must not exist. */
  readonly empty: boolean;
  /**
   * SHA-256 of `content`, when known without rendering: the file's inputs are those the lock records, so
   * its output is the locked one and `content` is rendered only when read (render-cache.ts).
   */
  readonly hash?: string;
  /** The key of everything the output depends on (render-cache.ts; absent: not cacheable). */
  readonly input?: string;
  /** True when the output's hash came from the render cache: `content` is rendered only when read. */
  readonly fromCache?: boolean;
}

export interface PlannedSource {
  readonly type: 'filesystem' | 'git' | 'default';
  /** The location without credentials (`sourceIdentity`): what the lock records and reports show. */
  readonly location: string;
  readonly ref?: string;
  /** The resolved commit, for git sources. */
  readonly commit?: string;
}

export interface PlannedTemplate {
  readonly name: string;
  readonly version: string | undefined;
  /** Index into `RenderPlan.sources`. */
  readonly source: number;
  /** Resolved settings as plain JSON data. */
  readonly settings: Readonly<Record<string, unknown>>;
}

export interface PostCommand {
  /** Glob matched against the basename of a written file. */
  readonly glob: string;
  /** Command line; `{}` is replaced by the file's path (appended when absent). Run without a shell. */
  readonly command: string;
}

export interface RenderPlan {
  /** Absolute path of the project root (the directory holding `.sync.yml`). */
  readonly projectRoot: string;
  /** True when the project has no lock file yet: `files_init/` output is included. */
  readonly isNew: boolean;
  readonly engineVersion: string;
  readonly sources: readonly PlannedSource[];
  readonly templates: readonly PlannedTemplate[];
  /** Every output path once, in applied order (the winning template's file for a path). */
  readonly files: readonly PlannedFile[];
  /** Paths or globs never written or removed. */
  readonly unmanaged: readonly string[];
  /**
   * Paths a template produces that `unmanaged` leaves alone, when the plan did not render them (a V1
   * repository's files under `unmanaged: true`, which PDK never renders): listed by `status` as unmanaged,
   * as a V2 template's rendered-and-unmanaged files are.
   */
  readonly unmanagedOutputs?: readonly string[];
  /** Paths or globs to remove from the project. */
  readonly delete: readonly string[];
  /** Remove files Pantograph wrote before that no template produces now. */
  readonly purge: boolean;
  readonly post: readonly PostCommand[];
  readonly problems: readonly Problem[];
}
