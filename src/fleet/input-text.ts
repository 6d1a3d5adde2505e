/**
 * The files a fleet command reads that the operator names: the fleet file, a modulesync configuration's
 * `modulesync.yml` and `managed_modules.yml`, the CI shard reports `fleet report` merges (other machines'
 * artifacts). Each is read whole and parsed, so each is bounded before it is read: a regular file (a
 * symbolic link is followed: these are the operator's files, named as a shell would name them; but a FIFO
 * would block the run and a device such as /dev/zero never end), no larger than its limit, and UTF-8. A
 * UTF-8 byte order mark is skipped: every reader of these files takes it (the YAML parser, Psych's
 * `load_file` that modulesync reads its configuration with), and nothing read here is written back.
 * A repository's own files are checked apart (own-inputs.ts, sync-text.ts): there links are refused.
 */
import { closeSync, constants, fstatSync, openSync } from 'node:fs';
import { EngineError, type EngineErrorCode } from '../engine/errors.js';
import { decodeUtf8 } from '../shared/text-file.js';
import { readAll } from '../sync/paths.js';

export const MiB = 1024 * 1024;

export interface InputRules {
  /** The code of every refusal. */
  readonly code: EngineErrorCode;
  readonly maxBytes: number;
  /** The file as messages name it: `fleet file`, `modulesync configuration file`, `fleet report`. */
  readonly what: string;
  /** What a hint says to do once the file is fixed: `run the command again`. */
  readonly afterFix: string;
  /** The error for a file that does not exist (default: `cannot read FILE`). */
  readonly missing?: () => EngineError;
}

/** The file's text, or an EngineError (`rules.code`) saying what is wrong, at file:line:col. */
export function readInputText(file: string, rules: InputRules): string {
  const at = (line = 1, column = 1) => ({ file, line, column });
  let fd: number;
  try {
    // Non-blocking: opening a FIFO for reading waits for a writer; this returns at once, and fstat says.
    fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT' && rules.missing) throw rules.missing();
    throw new EngineError(rules.code, `cannot read ${file}: ${(e as Error).message}`, {
      hint: `check the ${rules.what}'s path and permissions, then ${rules.afterFix}`,
    });
  }
  let bytes: Buffer;
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) {
      throw new EngineError(
        rules.code,
        `${file} is not a regular file (${stat.isDirectory() ? 'a directory' : 'a FIFO, socket or device'}): a ${rules.what} is read whole, nothing was read or written`,
        { position: at(), hint: `give the ${rules.what} itself, then ${rules.afterFix}` },
      );
    }
    if (stat.size > rules.maxBytes) {
      throw new EngineError(
        rules.code,
        `${file} is ${stat.size} bytes, larger than the ${rules.maxBytes / MiB} MiB a fleet reads of a ${rules.what}: nothing was read or written`,
        {
          position: at(),
          hint: `check that this is the ${rules.what} meant (no real one is near that size), then ${rules.afterFix}`,
        },
      );
    }
    bytes = readAll(fd, stat.size);
  } finally {
    closeSync(fd);
  }
  const decoded = decodeUtf8(bytes);
  if ('problem' in decoded) {
    const { message, line, column } = decoded.problem;
    throw new EngineError(rules.code, `${file} ${message}: nothing was read or written`, {
      position: at(line, column),
      hint: `save the ${rules.what} as UTF-8 (most editors offer the encoding when saving), then ${rules.afterFix}`,
    });
  }
  return decoded.text.startsWith('\uFEFF') ? decoded.text.slice(1) : decoded.text;
}
