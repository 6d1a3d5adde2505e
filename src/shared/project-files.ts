/**
 * The files Pantograph keeps in a project, by name: in a module of their own, so that what only needs
 * the names (the answer memo, src/engine/answer-memo.ts) loads nothing else.
 */

/** The project's configuration. */
export const SYNC_FILE = '.sync.yml';
/** The lock file: its absence makes a project new (DESIGN 8). */
export const LOCK_FILE = '.pantograph.lock';
/** Held while a run writes, so two runs never interleave. */
export const RUN_LOCK_FILE = '.pantograph.lock.lck';
/** The journal of a run that writes (see sync/journal.ts). */
export const JOURNAL_FILE = '.pantograph.lock.pending';
/** Beside the journal: a line per file whose post commands finished during that run (sync/journal.ts). */
export const POSTED_FILE = '.pantograph.lock.posted';
/** Suffix of the file holding the new template output of a conflicting file (`<path>.pantograph-new`). */
export const NEW_SUFFIX = '.pantograph-new';
/** Suffix of temporary files (`.<hash>.pantograph-tmp`, beside their target). */
export const TMP_SUFFIX = '.pantograph-tmp';
