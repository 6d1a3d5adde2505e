/**
 * Where in its file a JavaScript hook failed. A thrown error carries the position in its stack (the frame
 * in the hook's module); a syntax error in an ES module carries none that code can read (Node keeps it in
 * a hidden property), so the file is checked again with `node --check`, whose report names line and column.
 */
import { pathToFileURL } from 'node:url';
import { childProcess } from '../shared/builtins.js';
import type { Position } from './model.js';

/** The first frame of `stack` in the hook's own file (the worker imports it with a `?mtime=` query). */
export function stackPosition(hookPath: string, stack: string | undefined): Position | undefined {
  if (stack === undefined) return undefined;
  const url = pathToFileURL(hookPath).href;
  for (const line of stack.split('\n')) {
    const at = line.indexOf(url);
    if (at < 0) continue;
    const match = /^(?:\?[^:\s)]*)?:(\d+):(\d+)/.exec(line.slice(at + url.length));
    if (match) return { file: hookPath, line: Number(match[1]), column: Number(match[2]) };
  }
  return undefined;
}

/**
 * The position of a syntax error in the hook's file, from `node --check` (which prints the file and line,
 * the source line and a caret under the fault); undefined when the file itself parses (the error is in a
 * module it imports) or the report is not understood.
 */
export function syntaxErrorPosition(hookPath: string): Position | undefined {
  const run = childProcess().spawnSync(process.execPath, ['--check', hookPath], {
    encoding: 'utf8',
    timeout: 10_000,
  });
  if (run.status === 0 || typeof run.stderr !== 'string') return undefined;
  const lines = run.stderr.split('\n');
  const head = lines.findIndex(
    (l) => l.startsWith(`${hookPath}:`) || l.startsWith(`${pathToFileURL(hookPath).href}:`),
  );
  if (head < 0) return undefined;
  const line = Number(/:(\d+)$/.exec(lines[head]!)?.[1]);
  if (!Number.isInteger(line) || line < 1) return undefined;
  const caret = lines[head + 2]?.indexOf('^') ?? -1;
  return { file: hookPath, line, column: caret >= 0 ? caret + 1 : 1 };
}
