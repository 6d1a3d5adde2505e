/**
 * The project's own conformance cases (test/conformance/*cases*) through the built CLI's `epp render`, many
 * cases to a process: what `bin.cjs epp render {template} --values {values_puppet}` runs (its bundle, its
 * code cache, the same arguments), without starting Node ~900 times. A process per case costs ~0.15 s of
 * Node's start-up here, ~100 s of CI's 20 minutes (docs/decisions.md, "The test suite's running time").
 * The shared suite still runs a process per case, with the suite's own runner (scripts/conformance.mjs).
 *
 * A case passes as the suite's runner says (its README): exit 0 and standard output equal to expected.txt
 * byte for byte, or, for an error case, a non-zero exit. Each worker process renders its cases one after
 * the other and ends each with a marker on both standard streams; a worker that dies or hangs in a case
 * gives that case the exit (a non-zero status, as a crashed CLI would) or fails it (timed out), and a new
 * worker goes on from the next case.
 *
 *   node scripts/conformance-batch.mjs [-j N] [--filter REGEX] [--timeout S] [-v] [--values-file]
 *     [--bin dist/cli/bin.cjs] DIR...      (--values-file: values given as the file, not the literal)
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const here = fileURLToPath(import.meta.url);
const root = resolve(dirname(here), '..');
/** As the suite's runner: a case that takes longer (60 s unless `--timeout S`) has hung. */
let caseTimeoutMs = 60_000;

/**
 * Every case in the folders (each a folder of cases in the suite's format), whose name `filter` matches,
 * with its values given as `values` says: `--values` and the Puppet literal (the suite's
 * `{values_puppet}`), or `--values-file` and values.json (its `{values}`).
 */
export function casesIn(dirs, filter, values = 'literal') {
  return dirs.flatMap((dir) =>
    readdirSync(dir)
      .sort()
      .filter((name) => filter === undefined || filter.test(name))
      .map((name) => caseOf(join(dir, name), values)),
  );
}

/** One case: its name, the arguments `epp render` gets, what it must give. */
function caseOf(dir, values) {
  const { jsonToPuppet } = require('../test/conformance/generate.cjs');
  const valuesPath = join(dir, 'values.json');
  const valuesText = existsSync(valuesPath) ? readFileSync(valuesPath, 'utf8').trim() || '{}' : '{}';
  const expected = join(dir, 'expected.txt');
  return {
    name: dir.slice(dir.lastIndexOf('/') + 1),
    args: [
      join(dir, 'template.epp'),
      ...(values === 'file' ? ['--values-file', valuesPath] : ['--values', jsonToPuppet(valuesText)]),
    ],
    expected: existsSync(expected) ? readFileSync(expected) : undefined,
    expectedError: existsSync(join(dir, 'expected_error.txt')),
  };
}

/**
 * Runs `cases` in up to `jobs` worker processes; prints `FAIL name: why` for each failure and resolves to the
 * counts.
 */
export async function runBatch(cases, { bin, jobs = 2, verbose = false }) {
  const queue = [...cases];
  const chunk = Math.max(1, Math.ceil(cases.length / (jobs * 4)));
  let passed = 0;
  let failed = 0;
  const record = (c, result) => {
    const why = verdict(c, result, verbose);
    if (why === undefined) passed++;
    else {
      failed++;
      console.log(`FAIL ${c.name}: ${why}`);
    }
  };
  const worker = async () => {
    while (queue.length > 0) {
      // A worker takes a slice of the queue at a time (a few per worker, so that they end together); one that
      // dies gives back what it did not start.
      const slice = queue.splice(0, chunk);
      const left = await runWorker(slice, bin, record);
      queue.unshift(...left);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, jobs) }, worker));
  console.log(`${passed} passed, ${failed} failed`);
  return { passed, failed };
}

/** undefined when the case passes, else why not (in the suite's runner's words). */
function verdict(c, { code, stdout, stderr, timedOut }, verbose) {
  if (timedOut) return `timed out after ${caseTimeoutMs / 1000}s`;
  if (c.expected === undefined) {
    if (!c.expectedError) return 'case has no expected.txt nor expected_error.txt';
    return code !== 0 ? undefined : `expected an error but exit 0, stdout ${show(stdout.subarray(0, 80))}`;
  }
  if (code !== 0) {
    const said = stderr.toString('utf8').split('\n').filter(Boolean).slice(0, 2).join(' | ');
    return `exit ${code}${said ? `: ${said.slice(0, 300)}` : ''}`;
  }
  if (Buffer.compare(c.expected, stdout) === 0) return undefined;
  let why = `stdout differs ${firstDiff(c.expected, stdout)}`;
  if (verbose) why += `\n  expected: ${show(c.expected)}\n  actual:   ${show(stdout)}`;
  return why;
}

const show = (bytes) => JSON.stringify(bytes.toString('utf8'));

function firstDiff(expected, actual) {
  let k = 0;
  while (k < Math.min(expected.length, actual.length) && expected[k] === actual[k]) k++;
  const from = Math.max(0, k - 20);
  return `at byte ${k}: expected ${show(expected.subarray(from, k + 40))} got ${show(actual.subarray(from, k + 40))}`;
}

/**
 * One worker process over `cases`, in order; records each finished case. Resolves to the cases it did not
 * start (after one that crashed it or hung).
 */
function runWorker(cases, bin, record) {
  const token = randomBytes(8).toString('hex');
  const marker = Buffer.from(`\0${token} `);
  return new Promise((done) => {
    const child = spawn(process.execPath, [here, '--worker', bin, token], {
      stdio: ['pipe', 'pipe', 'pipe'],
      // A one-shot CLI interprets its template (a template's first renders are interpreted, src/epp/epp.ts):
      // so do these, though an earlier case in the process may have rendered the same text.
      env: { ...process.env, NO_COLOR: '1', PANTOGRAPH_EPP_TIER: 'interpreted' },
    });
    child.stdin.end(JSON.stringify(cases.map((c) => c.args)));
    let out = Buffer.alloc(0);
    let err = Buffer.alloc(0);
    let next = 0; // the case being rendered
    let timer;
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        timedOut = true;
        child.kill('SIGKILL');
      }, caseTimeoutMs);
    };
    let timedOut = false;
    arm();
    /** Takes every finished case off the front of the two streams. */
    const drain = () => {
      for (;;) {
        const end = endMarker(out, marker);
        const errEnd = endMarker(err, marker);
        if (end === undefined || errEnd === undefined) return;
        record(cases[next], {
          code: end.code,
          stdout: out.subarray(0, end.at),
          stderr: err.subarray(0, errEnd.at),
        });
        out = out.subarray(end.after);
        err = err.subarray(errEnd.after);
        next++;
        arm();
      }
    };
    child.stdout.on('data', (chunk) => {
      out = Buffer.concat([out, chunk]);
      drain();
    });
    child.stderr.on('data', (chunk) => {
      err = Buffer.concat([err, chunk]);
      drain();
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      drain();
      if (next >= cases.length) return done([]);
      // The case it was in ended the process: its exit is that case's, as with a process of its own.
      const killed = signal && !timedOut ? `killed by ${signal}\n` : '';
      record(cases[next], {
        code: code ?? 128,
        stdout: out,
        stderr: Buffer.concat([Buffer.from(killed), err]),
        timedOut,
      });
      done(cases.slice(next + 1));
    });
  });
}

/** The first `\0token code\0` in `bytes`: where it starts, the exit code it carries, where it ends. */
function endMarker(bytes, marker) {
  const at = bytes.indexOf(marker);
  if (at < 0) return undefined;
  const close = bytes.indexOf(0, at + marker.length);
  if (close < 0) return undefined;
  return { at, code: Number(bytes.subarray(at + marker.length, close).toString()), after: close + 1 };
}

/**
 * The worker: loads the CLI's `epp render` as bin.cjs does (dist/cli/load-bundle.cjs) and runs each case's
 * arguments, ending each with the marker on both streams (written as the CLI writes them: to the
 * descriptors).
 */
async function worker(bin, token) {
  const bundles = require(join(dirname(bin), 'load-bundle.cjs'));
  const fastPath = await bundles.loadFastPath();
  const argsList = JSON.parse(readFileSync(0, 'utf8'));
  for (const args of argsList) {
    process.exitCode = undefined;
    let code = await fastPath.fastEppRender(args);
    // The fast path declines arguments it does not read: then bin.cjs runs the whole command line.
    if (code === undefined) code = await (await bundles.loadMain()).main(['epp', 'render', ...args]);
    const end = `\0${token} ${code ?? process.exitCode ?? 0}\0`;
    writeSync(1, end);
    writeSync(2, end);
  }
}

/** The runner's options (`-j`, `--filter`, `--timeout`, `-v`), `--bin`, and the case folders. */
export function parseArguments(argv) {
  const options = {
    jobs: 2,
    filter: undefined,
    verbose: false,
    bin: join(root, 'dist', 'cli', 'bin.cjs'),
    values: 'literal',
  };
  const dirs = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '-j') options.jobs = Number(argv[++i]);
    else if (a === '--filter') options.filter = new RegExp(argv[++i]);
    else if (a === '-v') options.verbose = true;
    else if (a === '--timeout') caseTimeoutMs = Number(argv[++i]) * 1000;
    else if (a === '--bin') options.bin = resolve(argv[++i]);
    else if (a === '--values-file') options.values = 'file';
    else dirs.push(resolve(a));
  }
  return { options, dirs };
}

if (process.argv[2] === '--worker') {
  await worker(process.argv[3], process.argv[4]);
} else if (process.argv[1] === here) {
  const { options, dirs } = parseArguments(process.argv.slice(2));
  const { passed, failed } = await runBatch(casesIn(dirs, options.filter, options.values), options);
  if (failed > 0 || passed === 0) process.exitCode = 1;
}
