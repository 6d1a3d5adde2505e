#!/usr/bin/env node
/**
 * `npm run conformance`: runs the shared EPP conformance suite (expected output produced by Puppet 7.23)
 * against the built CLI, once per way of passing values:
 *
 *   run -j 2 -- node <repo>/dist/cli/bin.cjs epp render {template} --values {values_puppet}
 *   run -j 2 -- node <repo>/dist/cli/bin.cjs epp render {template} --values-file {values}
 *
 * The project's own cases (~900) run both ways too, through the same CLI code but many cases to a process
 * (scripts/conformance-batch.mjs): a process each costs ~100 s of CI's 20 minutes per way in Node's
 * start-up alone (docs/decisions.md, "The test suite's running time"). `--process-per-case` runs them a
 * process each with the suite's runner, the first way only (the issue's gate), as CI ran them until
 * session 32.
 *
 * The issue's gate is `./run -- npx pantograph epp render {template} --values {values_puppet}`:
 * `npx pantograph` resolves to this package's `bin`, which is dist/cli/bin.cjs, so running it with node is
 * the same binary without npx's start-up cost on every case. `--npx` runs the literal npx form instead.
 *
 * The suite is found at $EPP_CONFORMANCE_DIR, else ../shared/epp-conformance beside the repository; the
 * project's own cases are every test/conformance/*cases* folder.
 * Other arguments go to the runner, e.g. `npm run conformance -- --filter '^trim_' -v`.
 * Env CONFORMANCE_JOBS overrides the parallelism (default 2), PANTOGRAPH_BIN the CLI (default
 * dist/cli/bin.cjs). Exits 1 when either run fails.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { casesIn, parseArguments, runBatch } from './conformance-batch.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const suite = resolve(process.env.EPP_CONFORMANCE_DIR ?? join(root, '..', 'shared', 'epp-conformance'));
const runner = join(suite, 'run');
const bin = resolve(process.env.PANTOGRAPH_BIN ?? join(root, 'dist', 'cli', 'bin.cjs'));
const jobs = process.env.CONFORMANCE_JOBS ?? '2';

const args = process.argv.slice(2);
const useNpx = args.includes('--npx');
/** The project's cases a process each, as the shared suite runs (--npx implies it). */
const eachInAProcess = useNpx || args.includes('--process-per-case');
const runnerArgs = args.filter((a) => a !== '--npx' && a !== '--process-per-case');

function fail(message) {
  console.error(`conformance: ${message}`);
  process.exit(1);
}

if (!existsSync(runner)) {
  fail(`no suite at ${suite} (expected ${runner}); set EPP_CONFORMANCE_DIR to the epp-conformance folder`);
}
if (!existsSync(bin)) fail(`${bin} is missing: run \`npm run build\` first`);

const command = useNpx ? ['npx', '--no-install', 'pantograph'] : [process.execPath, bin];
const modes = [
  { label: '--values {values_puppet}', values: ['--values', '{values_puppet}'] },
  { label: '--values-file {values}', values: ['--values-file', '{values}'] },
];

/**
 * The project's own cases, in the shared suite's format and produced by Puppet the same way
 * (test/conformance/README.md): every `test/conformance/*cases*` folder, run by the same runner.
 */
const projectCases = readdirSync(join(root, 'test', 'conformance'), { withFileTypes: true })
  .filter((d) => d.isDirectory() && d.name.includes('cases'))
  .map((d) => join(root, 'test', 'conformance', d.name));
const suites = [
  { label: 'shared suite', args: [], modes },
  // Many to a process, they run both ways as the shared suite does; a process each, `--values` only (the
  // issue's gate): ~900 more processes would cost ~100 s of CI.
  ...projectCases.map((dir) => ({
    label: dir,
    args: ['--cases', dir],
    modes: eachInAProcess ? [modes[0]] : modes,
    batch: !eachInAProcess,
  })),
];

/** Runs one suite once, streaming its output; resolves to its counts and what went wrong, if anything. */
function runSuite(mode, suiteRun) {
  if (suiteRun.batch) return runInBatches(mode, suiteRun);
  const argv = [
    runner,
    '-j',
    jobs,
    ...suiteRun.args,
    ...runnerArgs,
    '--',
    ...command,
    'epp',
    'render',
    '{template}',
    ...mode.values,
  ];
  console.log(`\n== conformance (${suiteRun.label}): pantograph epp render {template} ${mode.label}`);
  return new Promise((resolvePromise) => {
    // cwd is the repository so that `npx pantograph` finds this package's bin.
    const child = spawn(process.execPath, argv, { stdio: ['ignore', 'pipe', 'inherit'], cwd: root });
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      process.stdout.write(chunk);
    });
    child.on('error', (error) => fail(`could not start the runner: ${error.message}`));
    child.on('close', (code, signal) => {
      const counts = [...out.matchAll(/^(\d+) passed, (\d+) failed/gm)].at(-1);
      const passed = Number(counts?.[1] ?? 0);
      const failed = Number(counts?.[2] ?? 0);
      let why;
      if (code !== 0) why = signal ?? `exit ${code}`;
      else if (passed === 0) why = 'no case ran'; // a filter or folder matching nothing must not pass the gate
      resolvePromise({ passed, failed, why });
    });
  });
}

/** The project's cases, many to a process (scripts/conformance-batch.mjs). */
async function runInBatches(mode, suiteRun) {
  const dir = suiteRun.args[1];
  console.log(
    `\n== conformance (${dir}): pantograph epp render {template} ${mode.label}, many cases to a process`,
  );
  const { options } = parseArguments(['-j', jobs, ...runnerArgs, '--bin', bin]);
  const result = await runBatch(
    casesIn([dir], options.filter, mode === modes[1] ? 'file' : 'literal'),
    options,
  );
  let why;
  if (result.failed > 0) why = `${result.failed} failed`;
  else if (result.passed === 0) why = 'no case ran';
  return { ...result, why };
}

let passed = 0;
let failed = 0;
let failedRuns = 0;
for (const suiteRun of suites) {
  for (const mode of suiteRun.modes) {
    const result = await runSuite(mode, suiteRun);
    passed += result.passed;
    failed += result.failed;
    if (result.why) {
      failedRuns++;
      console.error(`== conformance FAILED (${suiteRun.label}) with ${mode.label} (${result.why})`);
    }
  }
}
const runs = suites.reduce((n, suiteRun) => n + suiteRun.modes.length, 0);
console.log(`\n${failedRuns > 0 ? `${failedRuns} of ${runs} runs failed` : `all ${runs} runs pass`}`);
// The closing line, over both runs, in the form CI reads.
console.log(`conformance: ${passed} passed, ${failed} failed`);
if (failedRuns > 0) process.exitCode = 1;
