/**
 * An internal error's stack as a maintainer reads it: the command line's bundles are minified (see
 * scripts/bundle-cli.mjs), so a frame in one of them is translated, through the source map the build left
 * beside it, to the TypeScript source's file, line and column. Frames elsewhere (Node's, the library's,
 * a run of the sources themselves) stay as they are, as does a frame the map does not cover.
 */
import { existsSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** `(/x/dist/cli/main.cjs:1:2345)` or `at /x/dist/cli/main.cjs:1:2345`: the file, line and column. */
const FRAME_POSITION = /(\(|at )([^()\s]+\.cjs):(\d+):(\d+)(\)?)$/;

export function readableStack(stack: string): string {
  const maps = new Map<string, SourceMap | undefined>();
  return stack
    .split('\n')
    .map((line) => {
      const m = FRAME_POSITION.exec(line);
      if (!m) return line;
      const [whole, open, file, row, column, close] = m as unknown as [
        string,
        string,
        string,
        string,
        string,
        string,
      ];
      const map = sourceMapOf(file, maps);
      const entry = map?.findEntry(Number(row) - 1, Number(column) - 1);
      if (!entry || !('originalSource' in entry)) return line;
      const source = sourcePath(entry.originalSource, file);
      return `${line.slice(0, -whole.length)}${open}${source}:${entry.originalLine + 1}:${entry.originalColumn + 1}${close}`;
    })
    .join('\n');
}

function sourceMapOf(file: string, maps: Map<string, SourceMap | undefined>): SourceMap | undefined {
  if (!maps.has(file)) {
    let map: SourceMap | undefined;
    try {
      const path = `${file}.map`;
      if (existsSync(path)) map = new SourceMap(JSON.parse(readFileSync(path, 'utf8')));
    } catch {
      map = undefined; // a damaged map: the frame stays as it is
    }
    maps.set(file, map);
  }
  return maps.get(file);
}

/** The source as a path from the package's root (`src/sync/apply.ts`), from the map's URL or path. */
function sourcePath(source: string, bundle: string): string {
  const absolute = source.startsWith('file:') ? fileURLToPath(source) : resolve(dirname(bundle), source);
  // The bundles sit in <package>/dist/cli/.
  return relative(resolve(dirname(bundle), '..', '..'), absolute);
}
