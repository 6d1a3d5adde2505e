import { lstatSync } from 'node:fs';

/** Anything at `path`, a dangling symbolic link included. */
export function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}
