import { lstatSync, statSync } from 'node:fs';

/** Anything at `path`, a dangling symbolic link included. */
export function exists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** A directory at `path` (through symbolic links); false when nothing is there. */
export function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
