/** Content hashes recorded in the lock: SHA-256, lower-case hex. */
import { createHash } from 'node:crypto';

export function sha256(content: Uint8Array): string {
  return createHash('sha256').update(content).digest('hex');
}

/** Whether `text` is a hash as `sha256` writes it: what the caches check before trusting one they read. */
export function isSha256Hex(text: string): boolean {
  return SHA256_HEX.test(text);
}

const SHA256_HEX = /^[0-9a-f]{64}$/;
