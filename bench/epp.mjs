#!/usr/bin/env node
/**
 * EPP speed benchmark: one realistic template (bench/fixtures/config.epp, 100 lines, typed parameters, a loop
 * over 50 hashes, conditionals, interpolation, `join`) rendered by Pantograph and, in the same run, the
 * equivalent eta and ejs templates. All three outputs must be byte-equal to Puppet 7's (expected.txt).
 *
 * Measures (process.hrtime.bigint):
 *   - render, plain JS values each render (the headline): renders/s of an already compiled template given
 *     the plain JavaScript values a library user passes, converted by each engine as it renders (warm-up,
 *     then rounds of 250 ms that alternate between the engines; the median round of each);
 *   - render, values pre-converted (a detail): Pantograph given Puppet values converted once beforehand;
 *   - cold: parse + compile + first render of a template the process has not seen (median of many; a
 *     unique marker per run makes each engine's generated JavaScript new too, so that neither our
 *     content-hash cache nor V8's cache of compiled code can answer). The engines take turns, one
 *     cold compile each per round, so that garbage, JIT state and the machine's load hit all alike;
 *   - cold in a fresh process: the same, once per new node process, the engines taking turns (target 1.5x);
 *   - import + first render in a fresh process (a detail): the same with the engine's import timed too, and
 *     only that engine imported (`pantograph/epp` for Pantograph): what a script rendering one template pays;
 *   - CLI: one `node dist/cli/bin.cjs epp render` process vs a node script that loads eta and renders
 *     (median of 10 runs each).
 * Prints a table with the ratios and the targets of issues 2 and 13 (`--targets-file F` appends the target
 * rows to F as JSON lines, for bench/run.mjs's summary). Exit 1 only when an output is wrong or an
 * engine cannot run: a missed target is a finding, not a failure.
 *
 * usage: node bench/epp.mjs [--json]      (env BENCH_DIST: another build folder, default dist/)
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const fixtures = join(root, 'bench', 'fixtures');
const dist = resolve(process.env.BENCH_DIST ?? join(root, 'dist'));
// The package's `pantograph/epp` entry: what a library user imports.
const eppModulePath = join(dist, 'epp.js');
const cliPath = join(dist, 'cli', 'bin.cjs');

const files = {
  epp: join(fixtures, 'config.epp'),
  eta: join(fixtures, 'config.eta'),
  ejs: join(fixtures, 'config.ejs'),
  values: join(fixtures, 'values.json'),
  expected: join(fixtures, 'expected.txt'),
  etaScript: join(fixtures, 'eta-render.mjs'),
};
const read = (path) => readFileSync(path, 'utf8');

// EPP does not escape, so eta and ejs are set not to either (fair comparison); no `with` blocks.
const ETA_OPTIONS = { autoEscape: false, autoTrim: false, useWith: false };
const EJS_OPTIONS = { _with: false, localsName: 'locals', compileDebug: false };

/**
 * A unique marker per cold run, so no engine can answer from a cache. It must change the generated code,
 * not only the template (V8 reuses the compiled code of a `new Function` source it has seen): eta keeps
 * a comment in its code, an EPP comment leaves no trace, so Pantograph's marker is a line of text.
 */
const coldComment = {
  pantograph: (n) => `cold ${n}\n`,
  eta: (n) => `<%/* cold ${n} */%>`,
  ejs: (n) => `<%# cold ${n} %>`,
};

/** Loads each engine and returns `{ compile(source) -> render(values) -> string }` adapters. */
async function loadEngines() {
  const engines = {};
  const { Eta } = await import('eta');
  const eta = new Eta(ETA_OPTIONS);
  engines.eta = { compile: (source) => eta.compile(source).bind(eta) };
  const ejs = (await import('ejs')).default;
  engines.ejs = { compile: (source) => ejs.compile(source, EJS_OPTIONS) };
  const epp = await loadPantograph();
  if (typeof epp === 'string') {
    engines.pantographMissing = epp;
  } else {
    engines.pantograph = {
      compile: (source) => {
        const template = epp.compileEpp(source, { file: files.epp });
        return (values) => template.render(values);
      },
      clearCache: typeof epp.clearCompileCache === 'function' ? () => epp.clearCompileCache() : undefined,
      renderEpp: epp.renderEpp,
      fromJs: epp.fromJs,
    };
  }
  return engines;
}

/** The built EPP facade, or a string saying why it cannot be used. */
async function loadPantograph() {
  if (!existsSync(eppModulePath)) return `${eppModulePath} is missing: run \`npm run build\` first`;
  const epp = await import(pathToFileURL(eppModulePath).href);
  if (typeof epp.compileEpp !== 'function' || typeof epp.renderEpp !== 'function') {
    return `${eppModulePath} does not export compileEpp and renderEpp yet`;
  }
  return epp;
}

const sources = () => ({ pantograph: read(files.epp), eta: read(files.eta), ejs: read(files.ejs) });
const values = () => JSON.parse(read(files.values));

const nowNs = () => process.hrtime.bigint();
const msSince = (start) => Number(nowNs() - start) / 1e6;

function median(xs) {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** Calls `fn` for `warmupMs`, then for about `runMs` in batches; returns calls per second. */
function throughput(fn, warmupMs = 300, runMs = 1000) {
  let sink = 0;
  const warmEnd = nowNs() + BigInt(warmupMs * 1e6);
  while (nowNs() < warmEnd) sink += fn().length;
  let calls = 0;
  let batch = 16;
  const start = nowNs();
  let elapsed = 0;
  while (elapsed < runMs) {
    for (let i = 0; i < batch; i++) sink += fn().length;
    calls += batch;
    elapsed = msSince(start);
    if (elapsed < runMs / 10) batch *= 2;
  }
  if (sink < 0) console.log(sink); // keeps the renders observable to the optimiser
  return (calls * 1000) / elapsed;
}

/**
 * Renders/s of each function (`{ name: fn }`): warmed up, then `rounds` rounds of `roundMs` in which the
 * functions take turns; the median round of each. Alternating keeps a change in the machine's load (it is
 * shared) from favouring whichever engine ran first.
 */
function alternatingThroughput(fns, rounds = 6, roundMs = 250) {
  for (const fn of Object.values(fns)) throughput(fn, 300, 50);
  const rates = Object.fromEntries(Object.keys(fns).map((name) => [name, []]));
  for (let r = 0; r < rounds; r++) {
    for (const [name, fn] of Object.entries(fns)) rates[name].push(throughput(fn, 0, roundMs));
  }
  return Object.fromEntries(Object.entries(rates).map(([name, xs]) => [name, median(xs)]));
}

/**
 * Median time (ms) of compile + first render of a never-seen source, per engine (`names`), over ~`budgetMs`
 * or `maxRounds`. Each round compiles one fresh source with every engine in turn.
 */
function coldMedians(names, engines, src, data, budgetMs = 2400, maxRounds = 200) {
  const times = Object.fromEntries(names.map((name) => [name, []]));
  const start = nowNs();
  for (let n = 0; n < maxRounds && (n < 5 || msSince(start) < budgetMs); n++) {
    for (const name of names) {
      const engine = engines[name];
      engine.clearCache?.();
      const fresh = src[name] + coldComment[name](`${process.pid}-${n}`);
      const t0 = nowNs();
      const out = engine.compile(fresh)(data);
      times[name].push(msSince(t0));
      if (out.length === 0) throw new Error(`${name}: empty output`);
    }
  }
  return Object.fromEntries(names.map((name) => [name, median(times[name])]));
}

/** Runs in a child process: imports one engine, then times its first compile + render. Prints ms. */
async function coldChild(name) {
  const engines = await loadEngines();
  const engine = engines[name];
  if (!engine) throw new Error(`engine ${name} unavailable`);
  const source = sources()[name];
  const data = values();
  const t0 = nowNs();
  engine.compile(source)(data);
  process.stdout.write(`${msSince(t0)}\n`);
}

/**
 * Runs in a child process: times importing one engine (alone: `pantograph/epp` is dist/epp.js) and its
 * first compile + render, what a script that renders one template pays beyond Node's own start. Prints ms.
 */
async function importChild(name) {
  const source = sources()[name];
  const data = values();
  const t0 = nowNs();
  let render;
  if (name === 'pantograph') {
    const epp = await import(pathToFileURL(eppModulePath).href);
    render = epp.compileEpp(source, { file: files.epp }).render(data);
  } else if (name === 'eta') {
    const { Eta } = await import('eta');
    const eta = new Eta(ETA_OPTIONS);
    render = eta.compile(source).call(eta, data);
  } else {
    const ejs = (await import('ejs')).default;
    render = ejs.compile(source, EJS_OPTIONS)(data);
  }
  const ms = msSince(t0);
  if (render.length === 0) throw new Error(`${name}: empty output`);
  process.stdout.write(`${ms}\n`);
}

/**
 * Median ms of each engine's first compile + render in a new node process (`--import-child`: import
 * included); the engines take turns.
 */
function coldInFreshProcesses(names, runs = 7, mode = '--cold-child') {
  const times = Object.fromEntries(names.map((name) => [name, []]));
  for (let i = 0; i < runs; i++) {
    for (const name of names) {
      const child = spawnSync(process.execPath, [fileURLToPath(import.meta.url), mode, name], {
        encoding: 'utf8',
        env: { ...process.env, BENCH_DIST: dist },
      });
      if (child.status !== 0) throw new Error(`cold child ${name} failed: ${child.stderr}`);
      times[name].push(Number(child.stdout.trim()));
    }
  }
  return Object.fromEntries(names.map((name) => [name, median(times[name])]));
}

/**
 * Median wall time (ms) of each command, `{ label: args }`. Runs alternate between the commands, so that a
 * change in the machine's load (it is shared) hits all of them alike; each one's stdout is checked once.
 */
function processMedians(commands, expected, runs = 10) {
  const run = (label, args) => {
    const t0 = nowNs();
    const child = spawnSync(process.execPath, args, { encoding: 'utf8', cwd: fixtures });
    const ms = msSince(t0);
    if (child.status !== 0) throw new Error(`${label} exited ${child.status}: ${child.stderr}`);
    return { ms, stdout: child.stdout };
  };
  const times = {};
  for (const [label, args] of Object.entries(commands)) {
    // the first run also warms the file-system cache
    if (run(label, args).stdout !== expected) throw new Error(`${label}: stdout differs from expected.txt`);
    times[label] = [];
  }
  for (let i = 0; i < runs; i++) {
    for (const [label, args] of Object.entries(commands)) times[label].push(run(label, args).ms);
  }
  return Object.fromEntries(Object.entries(times).map(([label, ms]) => [label, median(ms)]));
}

/** Fails loudly unless every engine renders exactly what Puppet 7 printed. */
function checkOutputs(engines, src, data, expected) {
  const wrong = [];
  for (const name of ['pantograph', 'eta', 'ejs']) {
    const engine = engines[name];
    if (!engine) continue;
    const out = engine.compile(src[name])(data);
    if (out !== expected)
      wrong.push(`${name}: output differs from bench/fixtures/expected.txt${firstDiff(out, expected)}`);
  }
  if (engines.pantograph) {
    const out = engines.pantograph.renderEpp(src.pantograph, data, { file: files.epp });
    if (out !== expected) wrong.push('pantograph renderEpp: output differs from expected.txt');
  }
  return wrong;
}

function firstDiff(actual, expected) {
  let i = 0;
  while (i < actual.length && actual[i] === expected[i]) i++;
  const line = expected.slice(0, i).split('\n').length;
  return ` (first difference at line ${line}: got ${JSON.stringify(actual.slice(i, i + 40))}, want ${JSON.stringify(expected.slice(i, i + 40))})`;
}

const fmt = (x, digits = 0) =>
  x === undefined
    ? '-'
    : x.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const pad = (s, n) => String(s).padStart(n);

/** One table row; `better` says whether a higher or lower number wins; `target` is the ratio to meet. */
function row(label, unit, r, better, target) {
  const ratio = r.pantograph !== undefined && r.eta ? r.pantograph / r.eta : undefined;
  let verdict = '';
  if (ratio !== undefined && target !== undefined) {
    const met = better === 'higher' ? ratio >= target : ratio <= target;
    verdict = `${better === 'higher' ? '>=' : '<='} ${target.toFixed(2)}x  ${met ? 'met' : 'MISSED'}`;
  } else if (target !== undefined) {
    verdict = `${better === 'higher' ? '>=' : '<='} ${target.toFixed(2)}x`;
  }
  const digits = unit === 'ms' ? 2 : 0;
  return [
    `${label} (${unit})`.padEnd(48),
    pad(fmt(r.pantograph, digits), 13),
    pad(fmt(r.eta, digits), 13),
    pad(fmt(r.ejs, digits), 13),
    pad(ratio === undefined ? '-' : `${ratio.toFixed(2)}x`, 10),
    `  ${verdict}`,
  ].join('');
}

async function main() {
  const json = process.argv.includes('--json');
  const engines = await loadEngines();
  const src = sources();
  const data = values();
  const expected = read(files.expected);

  const problems = checkOutputs(engines, src, data, expected);
  if (engines.pantographMissing) problems.push(`pantograph: ${engines.pantographMissing}`);
  for (const p of problems) console.error(`bench: ${p}`);

  const names = ['pantograph', 'eta', 'ejs'].filter((n) => engines[n]);
  const cached = {};
  const cold = {};
  const coldProcess = {};
  // The headline: every engine gets the plain JavaScript values a library user passes, on every render.
  const plainRenders = {};
  for (const name of names) {
    const render = engines[name].compile(src[name]);
    plainRenders[name] = () => render(data);
  }
  Object.assign(cached, alternatingThroughput(plainRenders));
  // A detail: Pantograph given values it converted to Puppet values once beforehand (what the engine does
  // with a template's settings), beside eta with plain values.
  const preConverted = {};
  if (engines.pantograph) {
    const render = engines.pantograph.compile(src.pantograph);
    const input = engines.pantograph.fromJs(data);
    const etaRender = engines.eta.compile(src.eta);
    Object.assign(
      preConverted,
      alternatingThroughput({ pantograph: () => render(input), eta: () => etaRender(data) }, 4),
    );
  }
  const byName = {};
  if (engines.pantograph) {
    const { renderEpp } = engines.pantograph;
    const options = { file: files.epp };
    byName.pantograph = throughput(() => renderEpp(src.pantograph, data, options));
  }
  {
    // eta's equivalent of a source-keyed cache: a named template looked up on each render.
    const { Eta } = await import('eta');
    const eta = new Eta(ETA_OPTIONS);
    eta.loadTemplate('@config', src.eta);
    byName.eta = throughput(() => eta.render('@config', data));
  }
  Object.assign(cold, coldMedians(names, engines, src, data));
  Object.assign(coldProcess, coldInFreshProcesses(names));
  const importProcess = coldInFreshProcesses(names, 7, '--import-child');

  const commands = { eta: [files.etaScript, files.eta, files.values] };
  if (existsSync(cliPath)) {
    commands.pantograph = [cliPath, 'epp', 'render', files.epp, '--values-file', files.values];
  } else {
    problems.push(`pantograph CLI: ${cliPath} is missing`);
    console.error(`bench: ${cliPath} is missing: CLI row skipped`);
  }
  const cli = processMedians(commands, expected);

  const lines = expected.split('\n').length - 1;
  console.log(`\nEPP benchmark: bench/fixtures/config.epp (${read(files.epp).split('\n').length - 1} lines,`);
  console.log(`50 backends) -> ${lines} lines of output, identical for all engines and Puppet 7.`);
  console.log(`node ${process.version}, ratio = pantograph / eta\n`);
  console.log(
    `${'measure'.padEnd(48)}${pad('pantograph', 13)}${pad('eta', 13)}${pad('ejs', 13)}${pad('ratio', 10)}  target`,
  );
  const targets = [
    ['render, plain JS values each render', 'renders/s', cached, 'higher', 1],
    ['cold, fresh process', 'ms', coldProcess, 'lower', 1.5],
  ];
  console.log(row(...targets[0]));
  console.log(row('render, values pre-converted', 'renders/s', preConverted, 'higher', undefined));
  console.log(row('cached, by source/name', 'renders/s', byName, 'higher', undefined));
  console.log(row('cold parse+compile+1st render', 'ms', cold, 'lower', 1));
  console.log(row(...targets[1]));
  console.log(row('import + 1st render, fresh process', 'ms', importProcess, 'lower', undefined));
  const targetsFile = process.argv.includes('--targets-file')
    ? process.argv[process.argv.indexOf('--targets-file') + 1]
    : undefined;
  if (targetsFile) {
    for (const [label, unit, r, better, target] of targets) {
      const ratio = r.pantograph / r.eta;
      const met = better === 'higher' ? ratio >= target : ratio <= target;
      const entry = {
        bench: 'epp',
        label: `EPP ${label} (${unit})`,
        pantograph: r.pantograph,
        anchorLabel: `eta`,
        anchor: r.eta,
        unit,
        ratio,
        target,
        better,
        met,
      };
      appendFileSync(targetsFile, `${JSON.stringify(entry)}\n`);
    }
  }
  console.log(row('CLI run vs eta script', 'ms', cli, 'lower', 1.2));
  console.log('');
  if (json) {
    console.log(
      JSON.stringify(
        { cached, preConverted, byName, cold, coldProcess, importProcess, cli, problems },
        null,
        2,
      ),
    );
  }
  if (problems.length > 0) process.exitCode = 1;
}

if (process.argv[2] === '--cold-child') {
  await coldChild(process.argv[3]);
} else if (process.argv[2] === '--import-child') {
  await importChild(process.argv[3]);
} else {
  await main();
}
