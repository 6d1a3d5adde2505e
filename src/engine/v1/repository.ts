/** What makes a directory a V1 template repository, as PDK decides it (renderer/v1.rb `compatible?`). */
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Both `moduleroot/` and `moduleroot_init/` are directories. */
export function isV1Repository(dir: string): boolean {
  return ['moduleroot', 'moduleroot_init'].every((d) => {
    const path = join(dir, d);
    return existsSync(path) && statSync(path).isDirectory();
  });
}

/** The name the V1 repository's files are planned and locked under (it has no templates of its own). */
export const V1_TEMPLATE_NAME = 'v1';
