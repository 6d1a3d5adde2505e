/**
 * `pantograph test`: authors' tests of a template repository. A case is `<template>/tests/<case>/`: a
 * `.sync.yml`, optional existing project files, and `expected/`, the output the template must produce.
 *
 * Each case runs in a fresh temporary project named after the case (so `$project['name']` is the case's
 * name unless the case has a metadata.json): the case's files but `expected/` are copied in, the
 * repository under test becomes the only template source when the case's `.sync.yml` names none (a case
 * without `.sync.yml` applies just its template), and the project is planned. The planned output — files
 * apply would write: non-empty, not `unmanaged`, init files only where the case has no such file — is
 * compared byte for byte (and by executable bit) with `expected/`. Nothing is written into the project;
 * `update` rewrites `expected/` from the output instead of comparing.
 */
import {
  chmodSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { isMap, isScalar, type Node, type Pair, parseDocument } from 'yaml';
import { textPatch } from '../sync/diff.js';
import { matchesAny } from '../sync/glob.js';
import { EngineError } from './errors.js';
import type { LoadedTemplate } from './model.js';
import { plan } from './plan.js';
import { loadProject, type ProjectOptions } from './project.js';
import { SYNC_FILE } from './project-config.js';
import type { PlannedFile, Problem, RenderPlan } from './render-plan.js';

export interface Difference {
  /** Project-relative path. */
  readonly path: string;
  /** `missing`: expected, not produced; `extra`: produced, not expected; `different`: content; `mode`. */
  readonly kind: 'missing' | 'extra' | 'different' | 'mode';
  /** A unified diff from expected to actual (`Binary files ... differ` for binary content). */
  readonly diff: string;
}

export interface CaseResult {
  readonly template: string;
  readonly name: string;
  /** Absolute directory of the case. */
  readonly dir: string;
  /** `updated`: `expected/` was rewritten (update mode). */
  readonly status: 'passed' | 'failed' | 'updated';
  readonly differences: readonly Difference[];
  /** Problems of planning the case (errors fail it; warnings are reported). */
  readonly problems: readonly Problem[];
  /** With `keepOutputs`: each file's text as produced and as expected (for a side-by-side view). */
  readonly outputs?: { readonly actual: Record<string, string>; readonly expected: Record<string, string> };
}

export interface TestOptions extends ProjectOptions {
  /** Rewrite `expected/` from the current output instead of comparing. */
  readonly update?: boolean;
  /** Return the produced and expected files' text with the result (the web interface's author view). */
  readonly keepOutputs?: boolean;
}

/** The cases of a template (also of one that could not be loaded): the directories under `tests/`, sorted. */
export function testCases(t: { readonly dir: string }): string[] {
  const dir = join(t.dir, 'tests');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((n) => !n.startsWith('.') && statSync(join(dir, n)).isDirectory())
    .sort();
}

/** Runs every case of `templates` (from the repository at `repoDir`). */
export async function runTemplateTests(
  repoDir: string,
  templates: readonly LoadedTemplate[],
  options: TestOptions = {},
): Promise<CaseResult[]> {
  const results: CaseResult[] = [];
  for (const t of templates) {
    for (const name of testCases(t)) results.push(await runCase(repoDir, t, name, options));
  }
  return results;
}

/** Runs one case. */
export async function runCase(
  repoDir: string,
  t: LoadedTemplate,
  name: string,
  options: TestOptions = {},
): Promise<CaseResult> {
  const dir = join(t.dir, 'tests', name);
  const base = mkdtempSync(join(tmpdir(), 'pantograph-case-'));
  const root = join(base, name);
  try {
    cpSync(dir, root, {
      recursive: true,
      filter: (src) => relative(dir, src).split(sep)[0] !== 'expected',
    });
    const inserted = prepareSyncFile(root, repoDir, t.name);
    const { update: _update, keepOutputs: _keep, ...projectOptions } = options;
    let planned: RenderPlan;
    try {
      planned = await plan(await loadProject(root, projectOptions));
    } catch (e) {
      // A case that cannot load (a V1 .sync.yml, a missing source) fails alone; the others still run.
      if (!(e instanceof EngineError)) throw e;
      const problems = e.problems.map((p) => caseProblem(p, root, dir, inserted));
      return { template: t.name, name, dir, problems, status: 'failed', differences: [] };
    }
    const problems = planned.problems.map((p) => caseProblem(p, root, dir, inserted));
    const result = { template: t.name, name, dir, problems };
    if (problems.some((p) => p.severity === 'error')) return { ...result, status: 'failed', differences: [] };
    const output = outputFiles(planned.files, planned.unmanaged, dir);
    const expectedDir = join(dir, 'expected');
    const expected = readTree(expectedDir);
    const differences = compare(output, expected);
    if (options.keepOutputs === true) {
      const texts = (files: Map<string, OutputFile>) =>
        Object.fromEntries([...files].map(([path, f]) => [path, Buffer.from(f.content).toString('utf8')]));
      Object.assign(result, { outputs: { actual: texts(output), expected: texts(expected) } });
    }
    if (options.update === true) {
      if (differences.length === 0) return { ...result, status: 'passed', differences };
      writeExpected(expectedDir, output);
      return { ...result, status: 'updated', differences };
    }
    return { ...result, status: differences.length === 0 ? 'passed' : 'failed', differences };
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}

/** Where `template_sources` was inserted into the case's `.sync.yml`, to map positions back. */
interface Insertion {
  readonly line: number;
  readonly count: number;
}

/**
 * Makes the copied `.sync.yml` use the repository: adds `template_sources: [{type: filesystem, location:
 * REPO}]` when it names no sources (one line after `version`, so positions map back exactly), or writes
 * a `.sync.yml` applying just `template` when the case has none. A case that names sources keeps them.
 */
function prepareSyncFile(root: string, repoDir: string, template: string): Insertion | undefined {
  const file = join(root, SYNC_FILE);
  const sourceLine = `template_sources: [{ type: filesystem, location: ${JSON.stringify(repoDir)} }]`;
  if (!existsSync(file)) {
    writeFileSync(file, `pdk_template:\n  version: 2\n  ${sourceLine}\n  templates: [${template}]\n`);
    return undefined;
  }
  const text = readFileSync(file, 'utf8');
  const doc = parseDocument(text, { version: '1.1' });
  const pdk = doc.errors.length === 0 ? doc.get('pdk_template', true) : undefined;
  // Leave broken, V1 and flow-style files alone: loading them reports the problem with its position.
  if (!isMap(pdk) || pdk.flow) return undefined;
  const pairs = pdk.items as Pair[];
  if (pairs.some((p) => isScalar(p.key) && p.key.value === 'template_sources')) return undefined;
  const version = pairs.find((p) => isScalar(p.key) && p.key.value === 'version');
  const anchor = ((version?.value ?? version?.key) as Node | undefined)?.range;
  const first = (pairs[0]?.key as Node | undefined)?.range;
  if (!anchor || !first) return undefined;
  const lineStart = text.lastIndexOf('\n', first[0] - 1) + 1;
  const indent = text.slice(lineStart, first[0]);
  if (!/^ +$/.test(indent)) return undefined;
  let at = text.indexOf('\n', anchor[1]);
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const insertion = `${indent}${sourceLine}${eol}`;
  const next = at < 0 ? `${text}${eol}${insertion}` : text.slice(0, (at += 1)) + insertion + text.slice(at);
  writeFileSync(file, next);
  const line = text.slice(0, at < 0 ? text.length : at).split('\n').length;
  return { line: at < 0 ? line + 1 : line, count: 1 };
}

/** A problem of the temporary project, pointed back at the case directory. */
function caseProblem(p: Problem, root: string, dir: string, inserted: Insertion | undefined): Problem {
  if (p.file === undefined || !(p.file === root || p.file.startsWith(`${root}${sep}`))) return p;
  const file = join(dir, relative(root, p.file));
  let line = p.line;
  if (inserted && line !== undefined && relative(root, p.file) === SYNC_FILE && line >= inserted.line) {
    line = Math.max(inserted.line - 1, line - inserted.count);
  }
  return { ...p, file, ...(line !== undefined ? { line } : {}) };
}

interface OutputFile {
  readonly content: Uint8Array;
  readonly executable: boolean;
}

/** What apply would write into a new project holding the case's files. */
function outputFiles(
  files: readonly PlannedFile[],
  unmanaged: readonly string[],
  caseDir: string,
): Map<string, OutputFile> {
  const out = new Map<string, OutputFile>();
  for (const f of files) {
    if (f.empty || matchesAny(unmanaged, f.path)) continue;
    if (f.kind === 'init' && existsSync(join(caseDir, f.path))) continue;
    out.set(f.path, { content: f.content, executable: (f.mode & 0o111) !== 0 });
  }
  return out;
}

/** Every regular file under `dir` by POSIX relative path; empty when `dir` does not exist. */
function readTree(dir: string): Map<string, OutputFile> {
  const out = new Map<string, OutputFile>();
  if (!existsSync(dir)) return out;
  const walk = (rel: string) => {
    for (const name of readdirSync(join(dir, rel)).sort()) {
      const r = rel === '' ? name : `${rel}/${name}`;
      const st = lstatSync(join(dir, r));
      if (st.isDirectory()) walk(r);
      else if (st.isFile()) {
        out.set(r, { content: readFileSync(join(dir, r)), executable: (st.mode & 0o111) !== 0 });
      }
    }
  };
  walk('');
  return out;
}

/** Differences from expected to actual, sorted by path. */
function compare(actual: Map<string, OutputFile>, expected: Map<string, OutputFile>): Difference[] {
  const paths = [...new Set([...actual.keys(), ...expected.keys()])].sort();
  const out: Difference[] = [];
  for (const path of paths) {
    const a = actual.get(path);
    const e = expected.get(path);
    if (!a) out.push({ path, kind: 'missing', diff: fileDiff(path, e!.content, undefined) });
    else if (!e) out.push({ path, kind: 'extra', diff: fileDiff(path, undefined, a.content) });
    else if (!Buffer.from(a.content).equals(e.content)) {
      out.push({ path, kind: 'different', diff: fileDiff(path, e.content, a.content) });
    } else if (a.executable !== e.executable) {
      const mode = (x: boolean) => (x ? 'executable' : 'not executable');
      out.push({ path, kind: 'mode', diff: `expected ${mode(e.executable)}, got ${mode(a.executable)}\n` });
    }
  }
  return out;
}

const decoder = new TextDecoder();

/** The unified diff from expected to actual content (`undefined`: no such file). */
function fileDiff(path: string, expected: Uint8Array | undefined, actual: Uint8Array | undefined): string {
  const from = expected === undefined ? '/dev/null' : `expected/${path}`;
  const to = actual === undefined ? '/dev/null' : `actual/${path}`;
  if (isBinary(expected) || isBinary(actual)) return `Binary files ${from} and ${to} differ\n`;
  return textPatch(
    from,
    to,
    decoder.decode(expected ?? new Uint8Array()),
    decoder.decode(actual ?? new Uint8Array()),
  );
}

function isBinary(content: Uint8Array | undefined): boolean {
  if (content === undefined) return false;
  return content.subarray(0, 8000).includes(0);
}

/** Replaces `expected/` with the output, keeping the executable bit. */
function writeExpected(dir: string, output: Map<string, OutputFile>): void {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const [path, f] of output) {
    const target = join(dir, path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, f.content);
    chmodSync(target, f.executable ? 0o755 : 0o644);
  }
}
