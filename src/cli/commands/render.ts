/**
 * `pantograph render [--output DIR] [PATH...]`: the plan's output, for review and tests. To standard
 * output with a `==> path (template) <==` header per file (binary files noted, not printed), or written
 * into DIR, which must be empty or new. Only the plan: no post commands, lock, delete or purge, and the
 * project itself is never written. What `unmanaged` names is left out, said on standard error: render
 * shows what apply would write, which never writes those files (a V1 run, like PDK, does not even render
 * them).
 */
import { chmodSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';
import { plan as planProject } from '../../engine/plan.js';
import { loadProject } from '../../engine/project.js';
import type { PlannedFile, RenderPlan } from '../../engine/render-plan.js';
import { hasErrors } from '../../engine/validate.js';
import { didYouMeanHint } from '../../shared/did-you-mean.js';
import { matchesAny } from '../../sync/glob.js';
import { UsageError } from '../errors.js';
import type { Io } from '../io.js';
import type { GlobalOptions } from '../main.js';
import {
  type EngineFlags,
  engineCommand,
  jsonProblem,
  plural,
  printJson,
  printProblems,
  projectDir,
  projectOptions,
} from '../report.js';

export interface RenderFlags extends EngineFlags {
  readonly output?: string;
}

export async function render(
  io: Io,
  global: GlobalOptions,
  paths: string[],
  flags: RenderFlags,
): Promise<number> {
  return engineCommand(io, global, async () => {
    // Check the output directory first: a refusal should not wait for (or depend on) planning.
    const outputDir = flags.output !== undefined ? resolve(io.cwd, flags.output) : undefined;
    if (outputDir !== undefined) checkOutputDir(outputDir, flags.output!);
    const plan = await planProject(await loadProject(projectDir(io, global), projectOptions(flags, io)));
    if (hasErrors(plan.problems)) {
      if (global.format === 'json') printJson(io, { files: [], problems: plan.problems.map(jsonProblem) });
      else printProblems(io, plan.problems);
      return 1;
    }
    const { managed, unmanaged } = splitUnmanaged(plan);
    // A V1 plan lists the unmanaged files it did not render; a V2 plan has no such list.
    const files = selectFiles(managed, paths, unmanaged, plan.unmanagedOutputs !== undefined);
    const leftOut = unmanaged.filter((path) => paths.length === 0 || wantedBy(paths, path));
    if (outputDir !== undefined) writeOutput(outputDir, files);
    if (global.format === 'json') {
      printJson(io, {
        ...(outputDir !== undefined ? { output: outputDir } : {}),
        files: files.map((f) => fileJson(f, outputDir === undefined)),
        unmanaged: leftOut,
        problems: plan.problems.map(jsonProblem),
      });
      return 0;
    }
    printProblems(io, plan.problems);
    if (leftOut.length > 0) {
      io.err(
        `left out ${plural(leftOut.length, 'unmanaged file')} (.sync.yml's unmanaged: apply never writes ${leftOut.length === 1 ? 'it' : 'them'}): ${leftOut.join(', ')}\n`,
      );
    }
    if (outputDir !== undefined) {
      const written = files.filter((f) => !f.empty).length;
      io.out(`wrote ${plural(written, 'file')} to ${flags.output}\n`);
      return 0;
    }
    let first = true;
    for (const f of files) {
      if (f.empty) continue;
      io.out(`${first ? '' : '\n'}==> ${f.path} (${f.template}) <==\n`);
      first = false;
      const text = utf8Text(f.content);
      if (text === undefined) io.out(`(binary file, ${plural(f.content.length, 'byte')}, not shown)\n`);
      else io.out(text.endsWith('\n') || text === '' ? text : `${text}\n`);
    }
    return 0;
  });
}

/**
 * The planned files apply would write, and the paths `unmanaged` leaves alone: a V2 plan renders those
 * too (they match `plan.unmanaged`), a V1 plan lists them unrendered (`unmanagedOutputs`).
 */
function splitUnmanaged(plan: RenderPlan): { managed: PlannedFile[]; unmanaged: string[] } {
  const managed: PlannedFile[] = [];
  const unmanaged: string[] = [];
  for (const f of plan.files) {
    if (matchesAny(plan.unmanaged, f.path)) {
      if (!f.empty) unmanaged.push(f.path);
    } else managed.push(f);
  }
  for (const path of plan.unmanagedOutputs ?? []) if (!unmanaged.includes(path)) unmanaged.push(path);
  return { managed, unmanaged };
}

/** A path argument as a project-relative path (`./bin/` -> `bin`). */
function wantedPath(given: string): string {
  return given
    .replace(/\\/g, '/')
    .replace(/^(\.\/)+/, '')
    .replace(/\/+$/, '');
}

function wantedBy(paths: readonly string[], path: string): boolean {
  return paths.some((p) => covers(wantedPath(p), path));
}

/**
 * Project-relative paths or directories to keep; each must match a planned file. One that matches only
 * unmanaged files is refused with that reason.
 */
function selectFiles(
  files: readonly PlannedFile[],
  paths: readonly string[],
  unmanaged: readonly string[],
  v1: boolean,
): readonly PlannedFile[] {
  if (paths.length === 0) return files;
  const wanted = paths.map((p) => ({ given: p, path: wantedPath(p) }));
  for (const w of wanted) {
    if (!files.some((f) => covers(w.path, f.path))) {
      const left = unmanaged.filter((path) => covers(w.path, path));
      if (left.length > 0) {
        const what =
          left.length === 1 && left[0] === w.path
            ? `'${w.given}' is unmanaged`
            : `'${w.given}' holds only unmanaged files (${left.join(', ')})`;
        throw new UsageError(
          `${what}: render leaves out what apply never writes`,
          v1
            ? "to see the template's output, remove `unmanaged: true` under the file's key in .sync.yml (PDK does not render it either)"
            : "to see the template's output, take it out of pdk_template.unmanaged in .sync.yml",
        );
      }
      throw new UsageError(
        `no planned file matches '${w.given}'`,
        didYouMeanHint(
          w.path,
          files.map((f) => f.path),
        ) ?? 'paths are relative to the project root; run `pantograph render` to see them all',
      );
    }
  }
  return files.filter((f) => wanted.some((w) => covers(w.path, f.path)));
}

function covers(wanted: string, path: string): boolean {
  return wanted === '' || path === wanted || path.startsWith(`${wanted}/`);
}

function checkOutputDir(dir: string, given: string): void {
  let isDir: boolean;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    return; // new: created when writing
  }
  if (!isDir) throw new UsageError(`--output ${given} is not a directory`, 'give a new or empty directory');
  if (readdirSync(dir).length > 0) {
    throw new UsageError(
      `--output ${given} is not empty`,
      'give a new or empty directory; render never overwrites',
    );
  }
}

function writeOutput(dir: string, files: readonly PlannedFile[]): void {
  mkdirSync(dir, { recursive: true });
  for (const f of files) {
    if (f.empty) continue;
    const target = resolve(dir, f.path);
    // The engine already refuses escaping paths; this is the writer's own guard.
    if (relative(dir, target).split(sep)[0] === '..')
      throw new UsageError(`refusing to write outside ${dir}: ${f.path}`);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, f.content);
    chmodSync(target, f.mode);
  }
}

const decoder = new TextDecoder('utf-8', { fatal: true });

/** The content as text, or undefined for binary content (a NUL byte, or not UTF-8). */
function utf8Text(content: Uint8Array): string | undefined {
  if (content.includes(0)) return undefined;
  try {
    return decoder.decode(content);
  } catch {
    return undefined;
  }
}

function fileJson(f: PlannedFile, withContent: boolean): Record<string, unknown> {
  const text = utf8Text(f.content);
  return {
    path: f.path,
    template: f.template,
    source: f.source,
    kind: f.kind,
    mode: `0${f.mode.toString(8)}`,
    empty: f.empty,
    binary: text === undefined,
    ...(withContent
      ? text === undefined
        ? { encoding: 'base64', content: Buffer.from(f.content).toString('base64') }
        : { encoding: 'utf8', content: text }
      : {}),
  };
}
