/** The package version, read once from package.json (two levels above `src/` or `dist/`). */
import { readFileSync } from 'node:fs';

let cached: string | undefined;

export function engineVersion(): string {
  if (cached === undefined) {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    cached = pkg.version;
  }
  return cached;
}
