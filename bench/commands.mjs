#!/usr/bin/env node
/**
 * What a user waits for at the command line, each beside its anchor in the same run (issue 13). Every
 * measure is a fresh process, started as a user starts it (`node dist/cli/bin.cjs ...`, which is what
 * `npx pantograph` runs), with the inputs a user gives:
 *
 *   status, init's module, unchanged   `pantograph status` in the module `init` creates      vs `node -e 0`
 *   status, 10,000 files, unchanged    `pantograph status`, a template of 10,000 .epp files   vs the floor
 *   apply, 10,000 files, no change     `pantograph apply` on that project, already applied    vs the floor
 *   epp render one-shot, YAML values   `pantograph epp render T --values-file V.yaml`         vs `puppet epp render`
 *   (detail) apply, 3,000 new files    a first `pantograph apply` of 3,000 files in one directory vs `cp -r`
 *
 * The floor of the 10,000-file rows is a node process that stats, reads and sha256-hashes every file of the
 * template and of the project: the least any tool must do to know that nothing changed without a cache.
 * Pantograph keeps such a cache (the digest record, docs/decisions.md): a file whose stat is unchanged is
 * not read, once it is 2 s old (younger files are always read). And `status` keeps its last clean answer,
 * `apply` its last answer with nothing done, with the stat identities of everything they came from
 * (src/engine/answer-memo.ts), given again while all are the same and 2 s old. The set-up waits those 2 s
 * after writing each project, as any project has settled between a user's commands. Beside each `status`
 * and `apply` row, a detail row with `--no-memo`, which plans and checks everything (the digest record
 * still answering for unchanged files).
 * Commands alternate run by run (load on this shared machine hits both sides alike); each figure is the
 * median wall time. The ratio is pantograph / anchor (for the puppet row, puppet / pantograph: how many
 * times faster). A missed target is printed as MISSED and is a finding, not a failure: exit 1 only when a
 * command fails or prints the wrong thing.
 *
 * usage: node bench/commands.mjs [--json] [--files N] [--runs N] [--targets-file F]
 *   --targets-file F  appends each target row to F as a JSON line (bench/run.mjs prints them all at the end)
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, 'dist', 'cli', 'bin.cjs');
const fixtures = join(root, 'bench', 'fixtures');
const floorScript = join(fixtures, 'read-floor.mjs');

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1] : fallback;
};
const FILES = Number(option('--files', 10_000));
const RUNS = Number(option('--runs', 7));
const FLAT_FILES = 3_000;
const targetsFile = option('--targets-file', undefined);

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};

/** Runs a command once; returns its wall time in ms. Throws when it fails or `check` refuses its output. */
function runOnce(label, command, argv, { cwd, check, env } = {}) {
  const t0 = process.hrtime.bigint();
  const child = spawnSync(command, argv, { cwd, encoding: 'utf8', env: { ...process.env, ...env } });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (child.error) throw new Error(`${label}: ${child.error.message}`);
  if (child.status !== 0) throw new Error(`${label} exited ${child.status}: ${child.stderr || child.stdout}`);
  if (check) check(child.stdout);
  return ms;
}

/** Median ms of each `{ label: [command, argv, options] }`, the commands taking turns; one untimed run each first. */
function alternate(commands, runs = RUNS) {
  const times = Object.fromEntries(Object.keys(commands).map((label) => [label, []]));
  for (const [label, [command, argv, opts]] of Object.entries(commands)) runOnce(label, command, argv, opts);
  for (let i = 0; i < runs; i++) {
    for (const [label, [command, argv, opts]] of Object.entries(commands))
      times[label].push(runOnce(label, command, argv, opts));
  }
  return Object.fromEntries(Object.entries(times).map(([label, xs]) => [label, median(xs)]));
}

const inLine = (stdout) => {
  if (/\b(create|changed|edited|conflict|adopt|delete|purge)\b/.test(stdout) && !/in line/.test(stdout))
    throw new Error(`status is not clean:\n${stdout.slice(0, 400)}`);
};

/** The module `init` creates, applied: the README's first command. */
function initModule(dir) {
  const project = join(dir, 'demo-module');
  runOnce('init', process.execPath, [cli, 'init', project, '--name', 'example-demo', '--yes']);
  return project;
}

/** A filesystem template of `n` small .epp files (a parameter, a loop, a conditional) and a project using it. */
function bigProject(dir, n) {
  const repo = join(dir, 'repo');
  const files = join(repo, 'big', 'files');
  writeFileSync(join(mkdirp(repo), 'README.md'), 'bench templates\n');
  mkdirp(join(repo, 'big'));
  writeFileSync(
    join(repo, 'big', 'template.json'),
    JSON.stringify({
      name: 'big',
      version: '1.0.0',
      default_settings: { service: 'demo', ports: [80, 443, 8080], tls: true },
    }),
  );
  for (let i = 0; i < n; i++) {
    const sub = mkdirp(join(files, `d${i % 100}`));
    writeFileSync(
      join(sub, `f${i}.conf.epp`),
      `<%- | String $service, Array[Integer] $ports, Boolean $tls | -%>\n# file ${i} of <%= $service %>\n` +
        `<% $ports.each |$p| { -%>\nlisten <%= $p %><% if $tls and $p == 443 { %> ssl<% } %>;\n<% } -%>\n` +
        `${'# padding line to give the file a realistic size\n'.repeat(20)}`,
    );
  }
  const project = mkdirp(join(dir, 'project'));
  writeFileSync(
    join(project, '.sync.yml'),
    `pdk_template:\n  version: 2\n  template_sources:\n    - type: filesystem\n      location: ${repo}\n  templates: [big]\n`,
  );
  runOnce('apply (set-up)', process.execPath, [cli, '-C', project, 'apply']);
  return { repo, project };
}

function mkdirp(path) {
  mkdirSync(path, { recursive: true });
  return path;
}

/** `puppet epp render` if installed, else undefined. */
function puppetCommand() {
  const probe = spawnSync('puppet', ['--version'], { encoding: 'utf8' });
  return probe.status === 0 ? 'puppet' : undefined;
}

const rows = [];
/** `better: 'lower'` rows compare pantograph/anchor to `target`; `'faster'` compares anchor/pantograph. */
function addRow(label, pantographMs, anchorLabel, anchorMs, target, better = 'lower') {
  const ratio = better === 'faster' ? anchorMs / pantographMs : pantographMs / anchorMs;
  const met = target === undefined ? undefined : better === 'faster' ? ratio >= target : ratio <= target;
  const row = { label, pantographMs, anchorLabel, anchorMs, ratio, target, better, met };
  rows.push(row);
  if (targetsFile && target !== undefined)
    appendFileSync(targetsFile, `${JSON.stringify({ bench: 'commands', ...row })}\n`);
}

/** A row without a target: a detail beside a target row (printed here, not in bench/run.mjs's summary). */
function addDetail(label, pantographMs, anchorLabel, anchorMs) {
  addRow(label, pantographMs, anchorLabel, anchorMs, undefined);
}

function formatRow(r) {
  const ms = (x) => `${x.toFixed(0)} ms`.padStart(9);
  const ratio = r.better === 'faster' ? `${r.ratio.toFixed(1)}x faster` : `${r.ratio.toFixed(2)}x`;
  const target =
    r.target === undefined
      ? '(detail)'
      : r.better === 'faster'
        ? `>= ${r.target}x faster`
        : `<= ${r.target}x`;
  const verdict = r.met === undefined ? '' : r.met ? 'met' : 'MISSED';
  return `${r.label.padEnd(40)}${ms(r.pantographMs)}  ${r.anchorLabel.padEnd(34)}${ms(r.anchorMs)}  ${ratio.padStart(12)}  ${target.padEnd(15)} ${verdict}`;
}

async function main() {
  const dir = mkdtempSync(join(process.env.PANTOGRAPH_BENCH_DIR ?? tmpdir(), 'pantograph-bench-cmd-'));
  const env = { XDG_CACHE_HOME: join(dir, 'cache') };
  try {
    const demo = initModule(dir);
    await new Promise((done) => setTimeout(done, 2100)); // the files settle (see above)
    const small = alternate({
      status: [process.execPath, [cli, '-C', demo, 'status'], { check: inLine, env }],
      planned: [process.execPath, [cli, '-C', demo, 'status', '--no-memo'], { check: inLine, env }],
      node: [process.execPath, ['-e', '0']],
    });
    addRow("status, init's module, unchanged", small.status, '`node -e 0`', small.node, 1.5);
    addDetail("status --no-memo, init's module", small.planned, '`node -e 0`', small.node);

    const { repo, project } = bigProject(dir, FILES);
    await new Promise((done) => setTimeout(done, 2100)); // the files settle (see above)
    const big = alternate(
      {
        status: [process.execPath, [cli, '-C', project, 'status'], { check: inLine, env }],
        planned: [process.execPath, [cli, '-C', project, 'status', '--no-memo'], { check: inLine, env }],
        apply: [process.execPath, [cli, '-C', project, 'apply'], { env }],
        applyPlanned: [process.execPath, [cli, '-C', project, 'apply', '--no-memo'], { env }],
        floor: [process.execPath, [floorScript, join(repo, 'big'), project]],
      },
      Math.max(3, Math.ceil(RUNS / 2)),
    );
    const floorLabel = 'stat+read+sha256 of template+project';
    addRow(
      `status, ${FILES.toLocaleString('en-US')} files, unchanged`,
      big.status,
      floorLabel,
      big.floor,
      1.5,
    );
    addDetail(`status --no-memo, ${FILES.toLocaleString('en-US')} files`, big.planned, floorLabel, big.floor);
    addRow(
      `apply, ${FILES.toLocaleString('en-US')} files, nothing to change`,
      big.apply,
      floorLabel,
      big.floor,
      1.5,
    );
    addDetail(
      `apply --no-memo, ${FILES.toLocaleString('en-US')} files`,
      big.applyPlanned,
      floorLabel,
      big.floor,
    );

    const flat = flatTemplate(dir, FLAT_FILES);
    const firstApply = alternateFresh(dir, {
      apply: (into) => [process.execPath, [cli, '-C', flatProject(into, flat), 'apply'], { env }],
      copy: (into) => ['cp', ['-r', flat.files, into]],
    });
    addDetail(
      `apply, ${FLAT_FILES.toLocaleString('en-US')} new files in one directory`,
      firstApply.apply,
      '`cp -r` of the same files',
      firstApply.copy,
    );

    const valuesYaml = join(dir, 'values.yaml');
    writeFileSync(valuesYaml, valuesAsYaml());
    const template = join(fixtures, 'config.epp');
    const puppet = puppetCommand();
    if (puppet) {
      const oneShot = alternate(
        {
          pantograph: [process.execPath, [cli, 'epp', 'render', template, '--values-file', valuesYaml]],
          puppet: [puppet, ['epp', 'render', template, '--values_file', valuesYaml]],
        },
        Math.max(3, Math.ceil(RUNS / 2)),
      );
      addRow(
        'epp render one-shot, YAML values',
        oneShot.pantograph,
        '`puppet epp render`',
        oneShot.puppet,
        10,
        'faster',
      );
    } else {
      console.log('epp render one-shot: puppet is not installed (apt-get install -y puppet): row skipped');
    }

    console.log(
      `\nCommands, each a fresh process (median of ${RUNS} runs, alternating), node ${process.version}`,
    );
    console.log(
      `${'measure'.padEnd(40)}${'pantograph'.padStart(9)}  ${'anchor'.padEnd(43)}  ${'ratio'.padStart(12)}  target`,
    );
    for (const r of rows) console.log(formatRow(r));
    if (args.includes('--json')) console.log(JSON.stringify(rows, null, 2));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A template of `n` plain files in one directory (a first apply writes them all into one directory). */
function flatTemplate(dir, n) {
  const repo = join(dir, 'flat-repo');
  const files = mkdirp(join(repo, 'flat', 'files'));
  writeFileSync(join(repo, 'flat', 'template.json'), JSON.stringify({ name: 'flat', version: '1.0.0' }));
  for (let i = 0; i < n; i++) writeFileSync(join(files, `f${i}.txt`), `file ${i}\n`);
  return { repo, files };
}

/** A new project in `dir` that applies the flat template. */
function flatProject(dir, flat) {
  mkdirp(dir);
  writeFileSync(
    join(dir, '.sync.yml'),
    `pdk_template:\n  version: 2\n  template_sources:\n    - type: filesystem\n      location: ${flat.repo}\n  templates: [flat]\n`,
  );
  return dir;
}

/**
 * Like {@link alternate}, for commands that must start from nothing: each run gets a new directory (made
 * before its clock starts, and removed after), which `commands[label](dir)` turns into the command.
 */
function alternateFresh(dir, commands, runs = Math.max(3, Math.ceil(RUNS / 2))) {
  const times = Object.fromEntries(Object.keys(commands).map((label) => [label, []]));
  let n = 0;
  const once = (label) => {
    const into = join(dir, `fresh-${n++}`);
    const [command, argv, opts] = commands[label](into);
    const ms = runOnce(label, command, argv, opts);
    rmSync(into, { recursive: true, force: true });
    return ms;
  };
  for (const label of Object.keys(commands)) once(label);
  for (let i = 0; i < runs; i++) for (const label of Object.keys(commands)) times[label].push(once(label));
  return Object.fromEntries(Object.entries(times).map(([label, xs]) => [label, median(xs)]));
}

/** The EPP bench's values (bench/fixtures/values.json) as the block-style YAML file a user would write. */
function valuesAsYaml() {
  return stringify(JSON.parse(readFileSync(join(fixtures, 'values.json'), 'utf8')));
}

await main();
