/** Content hashes recorded in the lock: SHA-256, lower-case hex. */
import { createHash } from 'node:crypto';

export function sha256(content: Uint8Array): string {
  return createHash('sha256').update(content).digest('hex');
}
