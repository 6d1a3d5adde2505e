/**
 * What the page based its edit of `.sync.yml` on: the hash of the file's bytes when the page loaded it (or
 * last saved it). A save or an apply is refused when the file on disk is no longer that one: the user
 * changed it in an editor meanwhile, and writing the page's text would drop that change.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { EngineError } from '../engine/errors.js';
import { SYNC_FILE } from '../engine/project-config.js';
import { danglingLinkError, writeSyncFile } from '../engine/sync-file.js';
import { errnoCode } from '../sync/errors.js';
import { Refused } from './request.js';

/** The base of a project without `.sync.yml`. */
const ABSENT = 'absent';

/** The hash of `.sync.yml`'s bytes as they are now (`absent` when there is none). */
export function baseOnDisk(root: string): string {
  let bytes: Buffer;
  try {
    bytes = readFileSync(join(root, SYNC_FILE));
  } catch (e) {
    if (errnoCode(e) === 'ENOENT') {
      const dangling = danglingLinkError(join(root, SYNC_FILE));
      if (dangling) throw dangling; // as the command line says it: saving would guess where to write
      return ABSENT;
    }
    // A directory in its place, say: refused as the command line refuses it (SYNC_READ, 422), not a 500.
    throw new EngineError('SYNC_READ', `cannot read ${join(root, SYNC_FILE)}: ${(e as Error).message}`);
  }
  return hashOf(bytes);
}

/** The base `.sync.yml` has once `text` is written. */
export function baseOfText(text: string): string {
  return hashOf(Buffer.from(text, 'utf8'));
}

/** Refuses (409) when `.sync.yml` on disk is not the one the page based its edit on. */
export function checkBase(root: string, base: string): void {
  if (baseOnDisk(root) === base) return;
  throw new Refused(
    'SYNC_CHANGED',
    `${SYNC_FILE} was changed on disk after this page loaded it (in an editor?): nothing was written`,
    `reload to start from ${SYNC_FILE} as it is now (the page's unsaved edits are dropped), then make them again`,
  );
}

/**
 * Writes `.sync.yml` whole or not at all (a temporary file renamed into place), keeping its mode as the
 * command line's writes do (a 0600 file holding a token stays 0600), and through a link to a shared file
 * as they do (engine/sync-file.ts); gives its new base.
 */
export function writeSyncText(root: string, text: string): string {
  writeSyncFile(join(root, SYNC_FILE), text);
  return baseOfText(text);
}

export function hashOf(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}
