#!/usr/bin/env node
/**
 * The fleet against the loop people write today (issue 14): N repositories, each the module `init`
 * creates, kept in line
 *
 *   fleet status, N repositories      `pantograph fleet status` (one process)                vs a loop of `pantograph -C repo status`
 *   fleet apply, N repositories       `pantograph fleet apply` after a setting changed in all  vs a loop of `pantograph -C repo apply`
 *   fleet status, N git remotes       `pantograph fleet status` fetching each clone           vs a loop of `git fetch` + `pantograph status`
 *
 * Every row plans every repository on both sides: the fleet runs `--fresh` (no resume state), the loop's
 * `status` runs `--no-memo` (no kept answer; both are on by default, and answer an unchanged repository
 * without planning it). The first two use `path:` repositories (directories used in place); both sides do
 * the same work on the same directories: for apply, each side first changes the same setting of every repository's .sync.yml (to
 * a value the other side did not use), so each run writes the same files. The third clones N bare remotes
 * once (not timed), then times a run that fetches every clone and plans it against a loop doing the same
 * with git and the CLI. Target: the fleet at least 3x faster. Each figure is the wall time of one run,
 * the sides alternating (median of --runs).
 *
 * usage: node bench/fleet.mjs [--repos N] [--runs N] [--json] [--targets-file F]
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, 'dist', 'cli', 'bin.cjs');
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1] : fallback;
};
const REPOS = Number(option('--repos', 200));
const RUNS = Number(option('--runs', 3));
const targetsFile = option('--targets-file', undefined);
const TARGET = 3;

const gitEnv = {
  GIT_AUTHOR_NAME: 'Bench',
  GIT_AUTHOR_EMAIL: 'bench@example.com',
  GIT_COMMITTER_NAME: 'Bench',
  GIT_COMMITTER_EMAIL: 'bench@example.com',
};

function run(command, argv, { cwd, env, ok = [0] } = {}) {
  const t0 = process.hrtime.bigint();
  const child = spawnSync(command, argv, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, ...gitEnv, ...env },
  });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (child.error) throw child.error;
  if (!ok.includes(child.status)) {
    throw new Error(`${command} ${argv.join(' ')} exited ${child.status}: ${child.stderr || child.stdout}`);
  }
  return { ms, stdout: child.stdout };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};

const rows = [];
function addRow(label, fleetMs, anchorLabel, loopMs) {
  const ratio = loopMs / fleetMs;
  const row = {
    label,
    pantographMs: fleetMs,
    anchorLabel,
    anchorMs: loopMs,
    ratio,
    target: TARGET,
    better: 'faster',
    met: ratio >= TARGET,
  };
  rows.push(row);
  if (targetsFile) appendFileSync(targetsFile, `${JSON.stringify({ bench: 'fleet', ...row })}\n`);
}

/** Sets puppet_lint's fail_on_warnings in every repository's .sync.yml (a template change to roll out). */
function setLint(dirs, value) {
  for (const dir of dirs) {
    const file = join(dir, '.sync.yml');
    const text = readFileSync(file, 'utf8').replace(/\npuppet_lint:\n {2}fail_on_warnings: \w+\n$/, '\n');
    writeFileSync(file, `${text}puppet_lint:\n  fail_on_warnings: ${value}\n`);
  }
}

function main() {
  const dir = mkdtempSync(join(process.env.PANTOGRAPH_BENCH_DIR ?? tmpdir(), 'pantograph-bench-fleet-'));
  const env = { XDG_CACHE_HOME: join(dir, 'cache') };
  try {
    const model = join(dir, 'model');
    run(process.execPath, [cli, 'init', model, '--name', 'acme-model', '--yes']);
    const names = Array.from({ length: REPOS }, (_, i) => `m${String(i).padStart(3, '0')}`);
    const dirs = names.map((n) => join(dir, 'repos', n));
    for (const d of dirs) cpSync(model, d, { recursive: true });
    writeFileSync(
      join(dir, 'fleet.yml'),
      `version: 1\nrepositories:\n${names.map((n) => `  - { name: ${n}, path: repos/${n} }`).join('\n')}\n`,
    );

    // status: both sides see every repository in line, and plan every one of them: the fleet `--fresh`
    // (without its resume state), the loop `--no-memo` (without the status memo, src/engine/answer-memo.ts).
    // With their defaults, neither would plan a repository that did not change.
    const status = { fleet: [], loop: [] };
    for (let i = 0; i < RUNS; i++) {
      status.fleet.push(run(process.execPath, [cli, 'fleet', 'status', '--fresh'], { cwd: dir, env }).ms);
      const t0 = performance.now();
      for (const d of dirs) run(process.execPath, [cli, '-C', d, 'status', '--no-memo'], { env });
      status.loop.push(performance.now() - t0);
    }
    addRow(
      `fleet status, ${REPOS} repositories`,
      median(status.fleet),
      '`pantograph status --no-memo` loop',
      median(status.loop),
    );

    // apply: each side rolls out a setting change to every repository (2 files each).
    const apply = { fleet: [], loop: [] };
    let flip = false;
    for (let i = 0; i < RUNS; i++) {
      setLint(dirs, (flip = !flip));
      apply.fleet.push(run(process.execPath, [cli, 'fleet', 'apply', '--fresh'], { cwd: dir, env }).ms);
      setLint(dirs, (flip = !flip));
      const t0 = performance.now();
      for (const d of dirs) run(process.execPath, [cli, '-C', d, 'apply'], { env });
      apply.loop.push(performance.now() - t0);
    }
    addRow(
      `fleet apply, ${REPOS} repositories, 2 files each`,
      median(apply.fleet),
      '`pantograph apply` loop',
      median(apply.loop),
    );

    // git remotes: every repository a bare remote; clones made once, then each run fetches and plans.
    const remotes = join(dir, 'remotes');
    for (const [i, d] of dirs.entries()) {
      run('git', ['init', '--quiet', '--initial-branch=main'], { cwd: d });
      run('git', ['add', '-A'], { cwd: d });
      run('git', ['commit', '--quiet', '-m', 'module'], { cwd: d });
      run('git', ['clone', '--quiet', '--bare', d, join(remotes, `${names[i]}.git`)]);
    }
    writeFileSync(
      join(dir, 'git-fleet.yml'),
      `version: 1\nworkdir: clones\nrepositories:\n${names.map((n) => `  - { name: ${n}, url: remotes/${n}.git }`).join('\n')}\n`,
    );
    const loopClones = join(dir, 'loop-clones');
    run(process.execPath, [cli, 'fleet', 'status', '--fleet', 'git-fleet.yml'], { cwd: dir, env });
    for (const n of names) run('git', ['clone', '--quiet', join(remotes, `${n}.git`), join(loopClones, n)]);
    const gitRuns = { fleet: [], loop: [] };
    for (let i = 0; i < RUNS; i++) {
      gitRuns.fleet.push(
        run(process.execPath, [cli, 'fleet', 'status', '--fresh', '--fleet', 'git-fleet.yml'], {
          cwd: dir,
          env,
        }).ms,
      );
      const t0 = performance.now();
      for (const n of names) {
        const clone = join(loopClones, n);
        run('git', ['fetch', '--quiet', 'origin'], { cwd: clone });
        run('git', ['checkout', '--quiet', '--force', '--detach', 'origin/main'], { cwd: clone });
        run(process.execPath, [cli, '-C', clone, 'status', '--no-memo'], { env }); // as above
      }
      gitRuns.loop.push(performance.now() - t0);
    }
    addRow(
      `fleet status, ${REPOS} git remotes (fetch each)`,
      median(gitRuns.fleet),
      'git fetch + `status --no-memo` loop',
      median(gitRuns.loop),
    );

    console.log(`\nFleet vs a loop of single commands (median of ${RUNS} runs), node ${process.version}`);
    for (const r of rows) {
      const s = (ms) => `${(ms / 1000).toFixed(2)} s`.padStart(9);
      console.log(
        `${r.label.padEnd(44)}${s(r.pantographMs)}  ${r.anchorLabel.padEnd(38)}${s(r.anchorMs)}  ${`${r.ratio.toFixed(1)}x faster`.padStart(12)}  >= ${TARGET}x faster  ${r.met ? 'met' : 'MISSED'}`,
      );
    }
    console.log(
      'modulesync: not measured (it is a Ruby gem; this machine installs no gems from rubygems.org)',
    );
    if (args.includes('--json')) console.log(JSON.stringify(rows, null, 2));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main();
