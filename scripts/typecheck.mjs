#!/usr/bin/env node
/**
 * `npm run typecheck`: the project's TypeScript (tsconfig.json: src, test, scripts) and the web pages'
 * (web/tsconfig.json), each checked by its own `tsc --noEmit`, side by side. tsc runs on one thread, so
 * on two cores the pair takes the longer one's time, not the sum (~8 s less of CI's type-check, session 31).
 * Each one's output is printed whole once it ends, in the order below, so that the two never interleave.
 * Exits 1 when either fails.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const projects = ['tsconfig.json', 'web/tsconfig.json'];

/** Runs tsc on `project`; resolves to its exit status and everything it printed. */
function check(project) {
  return new Promise((done) => {
    const child = spawn(process.execPath, [tsc, '-p', project, '--noEmit'], { cwd: root });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.on('error', (error) => done({ status: 1, output: `could not start tsc: ${error.message}\n` }));
    child.on('close', (code, signal) => done({ status: code ?? 1, output, signal }));
  });
}

const results = await Promise.all(projects.map(check));
let failed = 0;
projects.forEach((project, i) => {
  const { status, output, signal } = results[i];
  process.stdout.write(output);
  if (status !== 0) {
    failed++;
    console.error(`typecheck: tsc -p ${project} failed (${signal ?? `exit ${status}`})`);
  }
});
if (failed > 0) process.exitCode = 1;
