/**
 * Runs `src/sync` in a child Node process (for kill and permission tests): the sources are transpiled
 * with TypeScript into a temporary directory whose `node_modules` links to the project's.
 */
import { spawn } from 'node:child_process';
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import ts from 'typescript';

const repo = resolve(import.meta.dirname, '../..');

/** Builds `src/sync` (and `src/shared`, which it imports) into a fresh directory holding `sync/index.js`. */
export function buildSync(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'pantograph-sync-build-'));
  chmodSync(dir, 0o755);
  for (const folder of ['sync', 'shared']) {
    mkdirSync(join(dir, folder));
    for (const name of readdirSync(join(repo, 'src', folder))) {
      if (!name.endsWith('.ts')) continue;
      const source = readFileSync(join(repo, 'src', folder, name), 'utf8');
      const out = ts.transpileModule(source, {
        compilerOptions: {
          module: ts.ModuleKind.ESNext,
          target: ts.ScriptTarget.ES2022,
          verbatimModuleSyntax: true,
        },
      });
      writeFileSync(join(dir, folder, name.replace(/\.ts$/, '.js')), out.outputText);
    }
  }
  symlinkSync(join(repo, 'node_modules'), join(dir, 'node_modules'));
  writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface ChildRun {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a module script with node, optionally as another user, resolving when it exits. */
export function runNode(
  script: string,
  args: readonly string[],
  options: { uid?: number; gid?: number; onStdout?: (text: string, kill: () => void) => void } = {},
): Promise<ChildRun> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [script, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(options.uid === undefined ? {} : { uid: options.uid }),
      ...(options.gid === undefined ? {} : { gid: options.gid }),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      options.onStdout?.(stdout, () => child.kill('SIGKILL'));
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', fail);
    child.on('close', (code, signal) => done({ code, signal, stdout, stderr }));
  });
}
