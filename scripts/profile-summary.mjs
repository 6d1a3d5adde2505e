#!/usr/bin/env node
/**
 * Where the time of a command goes, from V8 CPU profiles of several runs (the machine's noise averages out):
 *
 *   for i in 1 2 3 4 5 6 7 8; do
 *     node --cpu-prof --cpu-prof-interval 100 --cpu-prof-dir /tmp/prof dist/cli/bin.cjs status --no-memo
 *   done
 *   node scripts/profile-summary.mjs /tmp/prof                     # self time by function
 *   node scripts/profile-summary.mjs /tmp/prof --under loadProject  # self time of what loadProject runs
 *   node scripts/profile-summary.mjs /tmp/prof --total plan runIn   # inclusive time of those functions
 *   node scripts/profile-summary.mjs /tmp/prof --callers lstat      # the call chains that reach lstat
 *
 * Times are milliseconds per profile (the mean over the directory's *.cpuprofile files); a function is
 * named `name file:line` (bundles are minified onto few lines: the names still tell them apart). A
 * sampling profiler lengthens what it samples, and a sample's time belongs to the function that was
 * running: read the figures as shares, and measure a change with `npm run bench`, not with these.
 *
 * usage: node scripts/profile-summary.mjs DIR [--top N] [--under NAME | --total NAME... | --callers NAME]
 *        [--depth N]   (--callers: how many frames up, default 4)
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** One sample's time and its stack, innermost frame first. */
function* samplesOf(profile) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  for (let i = 0; i < profile.samples.length; i++) {
    // A sample's time is the gap to the next one (V8 writes the gap before each sample).
    const micros = profile.timeDeltas[i + 1] ?? 0;
    const stack = [];
    for (let id = profile.samples[i]; id !== undefined; id = parentOf.get(id))
      stack.push(byId.get(id).callFrame);
    yield { micros, stack };
  }
}

const label = (frame) =>
  `${frame.functionName || '(anonymous)'} ${frame.url.split('/').pop()}:${frame.lineNumber + 1}`;

/** Adds `micros` to `key` of `totals`. */
const add = (totals, key, micros) => totals.set(key, (totals.get(key) ?? 0) + micros);

/** The summary's lines for the profiles of `dir`, as `options` asks. */
export function summarize(dir, options = {}) {
  const files = readdirSync(dir).filter((name) => name.endsWith('.cpuprofile'));
  if (files.length === 0)
    throw new Error(`${dir}: no .cpuprofile files (node --cpu-prof --cpu-prof-dir ${dir} ...)`);
  const totals = new Map();
  let all = 0;
  for (const file of files) {
    const profile = JSON.parse(readFileSync(join(dir, file), 'utf8'));
    for (const { micros, stack } of samplesOf(profile)) {
      all += micros;
      const names = stack.map((frame) => frame.functionName);
      if (options.total) {
        for (const name of new Set(names)) if (options.total.includes(name)) add(totals, name, micros);
      } else if (options.callers) {
        if (names[0] !== options.callers) continue;
        const chain = stack
          .slice(1, 1 + (options.depth ?? 4))
          .map((frame) => frame.functionName || '(anonymous)');
        add(totals, chain.join(' < '), micros);
      } else if (!options.under || names.includes(options.under)) {
        add(totals, label(stack[0]), micros);
      }
    }
  }
  const perRun = (micros) => micros / files.length / 1000;
  const rows = options.total
    ? options.total.map((name) => [name, totals.get(name) ?? 0])
    : [...totals].sort((a, b) => b[1] - a[1]).slice(0, options.top ?? 30);
  return [
    `${files.length} profiles, ${perRun(all).toFixed(1)} ms sampled per profile`,
    ...rows.map(([name, micros]) => `${perRun(micros).toFixed(2).padStart(9)} ms  ${name}`),
  ];
}

function parseArguments(argv) {
  const [dir, ...rest] = argv;
  if (!dir || dir.startsWith('--')) throw new Error('usage: node scripts/profile-summary.mjs DIR [options]');
  const options = {};
  for (let i = 0; i < rest.length; i++) {
    const flag = rest[i];
    if (flag === '--top') options.top = Number(rest[++i]);
    else if (flag === '--depth') options.depth = Number(rest[++i]);
    else if (flag === '--under') options.under = rest[++i];
    else if (flag === '--callers') options.callers = rest[++i];
    else if (flag === '--total') {
      options.total = [];
      while (i + 1 < rest.length && !rest[i + 1].startsWith('--')) options.total.push(rest[++i]);
    } else throw new Error(`unknown option ${flag}`);
  }
  return { dir, options };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    const { dir, options } = parseArguments(process.argv.slice(2));
    console.log(summarize(dir, options).join('\n'));
  } catch (e) {
    console.error(`profile-summary: ${e.message}`);
    process.exitCode = 1;
  }
}
