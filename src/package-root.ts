/**
 * Where the package's own files are (package.json, `templates/`, `schemas/`), found from this module: the
 * modules of `src/` and `dist/`, and the command's bundle (`dist/cli/main.cjs`), sit at different depths.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let root: string | undefined;

/** The nearest directory above this module with a package.json: the package's root. */
export function packageRoot(): string {
  if (root === undefined) {
    let dir = dirname(fileURLToPath(import.meta.url));
    while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
    root = dir;
  }
  return root;
}

/** A file or directory of the package, by its path from the package's root. */
export function packagePath(...segments: string[]): string {
  return join(packageRoot(), ...segments);
}
