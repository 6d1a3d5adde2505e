#!/usr/bin/env node
/**
 * How close the default templates come to what pdk-templates wrote in real modules (issue 17, item 2):
 * for every module of test/fixtures/real-modules, a copy is converted (`pantograph convert`, written) and
 * planned with the default templates; each file pdk-templates manages that the module has is compared with
 * what Pantograph would write.
 *
 *   npm run build && node scripts/pdk-parity.mjs [--json] [--only NAME,...] [--files] [--outputs DIR]
 *
 * `--outputs DIR` writes what Pantograph renders to DIR/<module>/<path>, to diff with the fixture.
 * `--record` writes test/fixtures/real-modules/parity.json: per module, the files that are identical now.
 * test/real-modules/all-files-ratchet.test.ts fails when one of them stops being identical (a ratchet: record again
 * when more files become identical).
 *
 * Prints a line per module and the summary line tracked in the issue's notes:
 *   `parity: N modules, F files: I identical, D differing (L diff lines), U no longer managed`
 * A file is "no longer managed" when, after convert, no template writes it (PDK wrote it; Pantograph would
 * leave it alone); "unmanaged by the module" when the module's `.sync.yml` says `unmanaged` (neither tool
 * touches it, so it is not compared). Diff lines count added plus removed lines. Uses the built library (dist/).
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { diffLines } from 'diff';
import picomatch from 'picomatch';

const root = resolve(import.meta.dirname, '..');
const corpusDir = join(root, 'test/fixtures/real-modules');
const { convertSyncFile, writeConversion, planProjectAt, validateProject, hasErrors } = await import(
  join(root, 'dist/index.js')
);

/** Added plus removed lines between two texts. */
export function diffLineCount(before, after) {
  let n = 0;
  for (const part of diffLines(before, after)) if (part.added || part.removed) n += part.count ?? 0;
  return n;
}

/** Converts and plans one corpus module in a scratch copy; compares each managed file. */
export async function moduleParity(entry, { env = process.env, outputs } = {}) {
  const dir = mkdtempSync(join(tmpdir(), `parity-${entry.name}-`));
  try {
    cpSync(join(corpusDir, entry.name), dir, { recursive: true });
    const conversion = await convertSyncFile(dir, { env });
    if (conversion.after !== undefined) writeConversion(conversion);
    const validation = await validateProject(dir, { env });
    const { plan } = await planProjectAt(dir, { env });
    const planned = new Map(plan.files.map((f) => [f.path, f]));
    const unmanaged = picomatch(plan.unmanaged.length > 0 ? [...plan.unmanaged] : ['\0'], { dot: true });
    const files = [];
    for (const path of entry.files.filter((p) => p !== '.sync.yml' && p !== 'metadata.json')) {
      const theirs = readFileSync(join(corpusDir, entry.name, path), 'utf8');
      const ours = planned.get(path);
      if (unmanaged(path)) {
        files.push({ path, state: 'unmanaged', diffLines: 0 });
        continue;
      }
      if (!ours || ours.empty || ours.kind === 'init') {
        files.push({ path, state: 'not managed', diffLines: 0 });
        continue;
      }
      const text = Buffer.from(ours.content).toString('utf8');
      if (outputs) {
        mkdirSync(dirname(join(outputs, entry.name, path)), { recursive: true });
        writeFileSync(join(outputs, entry.name, path), text);
      }
      const lines = text === theirs ? 0 : diffLineCount(theirs, text);
      files.push({
        path,
        state: lines === 0 ? 'identical' : 'differing',
        diffLines: lines,
        template: ours.template,
      });
    }
    return {
      name: entry.name,
      templateRef: entry.templateRef,
      validateErrors: validation.problems.filter((p) => p.severity === 'error'),
      valid: !hasErrors(validation.problems),
      convertWarnings: conversion.problems.length,
      files,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function summarize(results) {
  const files = results.flatMap((r) => r.files);
  const count = (state) => files.filter((f) => f.state === state).length;
  return {
    modules: results.length,
    valid: results.filter((r) => r.valid).length,
    files: files.length,
    identical: count('identical'),
    differing: count('differing'),
    unmanaged: count('unmanaged'),
    notManaged: count('not managed'),
    diffLines: files.reduce((n, f) => n + f.diffLines, 0),
  };
}

export const summaryLine = (s) =>
  `parity: ${s.modules} modules (${s.valid} validate clean), ${s.files} files: ${s.identical} identical, ` +
  `${s.differing} differing (${s.diffLines} diff lines), ${s.notManaged} no longer managed, ` +
  `${s.unmanaged} unmanaged by the module`;

if (import.meta.main ?? process.argv[1] === import.meta.filename) {
  const args = process.argv.slice(2);
  const onlyAt = args.indexOf('--only');
  const only = onlyAt === -1 ? undefined : args[onlyAt + 1].split(',');
  const corpus = JSON.parse(readFileSync(join(corpusDir, 'corpus.json'), 'utf8'));
  const results = [];
  for (const entry of corpus.modules.filter((m) => !only || only.includes(m.name))) {
    const outAt = args.indexOf('--outputs');
    const r = await moduleParity(entry, { outputs: outAt === -1 ? undefined : resolve(args[outAt + 1]) });
    results.push(r);
    if (args.includes('--json')) continue;
    const s = summarize([r]);
    console.log(
      `${r.name.padEnd(34)} ${r.valid ? 'valid  ' : 'INVALID'} ${String(s.identical).padStart(2)} identical, ` +
        `${String(s.differing).padStart(2)} differing (${String(s.diffLines).padStart(4)} lines), ${s.notManaged} not managed, ${s.unmanaged} unmanaged`,
    );
    for (const e of r.validateErrors) console.log(`    error ${e.code}: ${e.message}`);
    if (args.includes('--files')) {
      for (const f of r.files.filter((x) => x.state !== 'identical')) {
        console.log(`    ${f.state.padEnd(9)} ${f.path}${f.diffLines ? ` (${f.diffLines} lines)` : ''}`);
      }
    }
  }
  if (args.includes('--json')) console.log(JSON.stringify({ summary: summarize(results), results }, null, 2));
  else console.log(summaryLine(summarize(results)));
  if (args.includes('--record')) {
    const identical = Object.fromEntries(
      results.map((r) => [r.name, r.files.filter((f) => f.state === 'identical').map((f) => f.path)]),
    );
    writeFileSync(
      join(corpusDir, 'parity.json'),
      `${JSON.stringify({ summary: summarize(results), identical }, null, 2)}\n`,
    );
  }
}
