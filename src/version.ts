/** The package version, read once from package.json. */
import { readFileSync } from 'node:fs';
import { packagePath } from './package-root.js';

let cached: string | undefined;

export function engineVersion(): string {
  if (cached === undefined) {
    const pkg = JSON.parse(readFileSync(packagePath('package.json'), 'utf8')) as {
      version: string;
    };
    cached = pkg.version;
  }
  return cached;
}
