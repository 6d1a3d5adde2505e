/**
 * `validateProject`: every problem of a project at once, from loading and from planning (which renders
 * every file in memory). Terminating load errors (no or unparsable `.sync.yml`, a V1 file, an unreachable
 * source) become problems too, so a caller gets one list whatever went wrong. Nothing is written.
 *
 * It plans twice and warns when a file's output differs (DESIGN 14): a hook or template that depends on
 * the time or on chance would make every `apply` change the project.
 *
 * On top of rendering, every applied template is checked statically (DESIGN 9; static-analysis.ts,
 * inspect.ts), branches the current settings do not reach included: the syntax of every file, partial and
 * hook (all errors of a file), unknown functions, `epp()` targets that do not exist, parameters a call site
 * leaves without value, and variables that are neither settings nor top-scope names (warnings). A static
 * problem that rendering found too (same code and place) is reported once.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type EppError, EppSyntaxError } from '../epp/errors.js';
import { compileEpp, findSyntaxErrors } from '../epp/index.js';
import { parsePuppet } from '../epp/parser/parser.js';
import { EngineError } from './errors.js';
import { buildTree, type InspectTree } from './inspect.js';
import type { LoadedTemplate } from './model.js';
import { plan, planDetailed } from './plan.js';
import { loadProject, type Project, type ProjectOptions } from './project.js';
import type { Problem, RenderPlan } from './render-plan.js';
import { analyzeEpp, unknownFunctionProblems } from './static-analysis.js';

export interface ValidationResult {
  /** Errors first, then warnings. */
  readonly problems: readonly Problem[];
  /** The plan, when loading got far enough to make one. */
  readonly plan?: RenderPlan;
  /** The project's tree (`validate --show-nested`), when asked for and loading got far enough. */
  readonly tree?: InspectTree;
}

export interface ValidateOptions {
  /** Also return the tree of templates, files and nested `epp()` calls (see inspect.ts). */
  readonly tree?: boolean;
}

export async function validateProject(
  dir: string,
  options: ProjectOptions = {},
  validateOptions: ValidateOptions = {},
): Promise<ValidationResult> {
  let project: Project;
  try {
    project = await loadProject(dir, options);
  } catch (e) {
    if (!(e instanceof EngineError)) throw e;
    return { problems: errorsFirst(e.problems) };
  }
  const detailed = await planDetailed(project);
  const first = detailed.plan;
  const built = buildTree(project, detailed);
  const statics = [...project.applied.flatMap(sourceProblems), ...built.problems];
  const tree = validateOptions.tree ? { tree: built.tree } : {};
  const problems = [...first.problems, ...notFoundBy(first.problems, statics), ...notApplied(project)];
  if (hasErrors(problems)) return { problems: errorsFirst(problems), plan: first, ...tree };
  const unstable = unstableOutputs(project, first, await plan(project));
  return { problems: errorsFirst([...problems, ...unstable]), plan: first, ...tree };
}

/**
 * What loading found wrong with the templates the sources offer but the project does not apply: warnings,
 * so that a broken template is seen before someone applies it (loading reports only applied ones).
 */
function notApplied(project: Project): Problem[] {
  const applied = new Set(project.applied.map((t) => t.name));
  const out: Problem[] = [];
  for (const [name, problems] of project.templateProblems) {
    if (applied.has(name) || !project.available.has(name)) continue;
    for (const p of problems) {
      out.push({ ...p, severity: 'warning', message: `template '${name}' (not applied): ${p.message}` });
    }
  }
  return out;
}

/**
 * The syntax of every `.epp` file and partial (every error of each), and of every `.pp` hook (its first
 * error), and the functions hooks call.
 */
function sourceProblems(t: LoadedTemplate): Problem[] {
  const problems: Problem[] = [];
  const epps = [
    ...t.files.filter((f) => f.isTemplate).map((f) => f.absPath),
    ...t.partials.filter((p) => p.endsWith('.epp')).map((p) => join(t.dir, p)),
  ];
  for (const file of epps) {
    const source = readText(file);
    if (source === undefined) continue; // rendering reports unreadable files
    const options = { file, delimiters: t.manifest.delimiters };
    try {
      // Usually a hit in the compile cache (rendering compiled it); only a file that fails is searched
      // for all its errors.
      compileEpp(source, options);
    } catch (e) {
      if (!(e instanceof EppSyntaxError)) throw e;
      problems.push(...findSyntaxErrors(source, options).map(syntaxProblem));
    }
  }
  for (const hook of Object.values(t.hooks)) {
    if (hook?.kind !== 'pp') continue;
    const source = readText(hook.path);
    if (source === undefined) continue;
    try {
      const ast = parsePuppet(source, { file: hook.path });
      problems.push(...unknownFunctionProblems(analyzeEpp(ast, source), hook.path, source));
    } catch (e) {
      problems.push(syntaxProblem(e as EppError));
    }
  }
  return problems;
}

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

function syntaxProblem(e: EppError): Problem {
  return {
    severity: 'error',
    code: e.code,
    message: e.message,
    ...(e.location ? { file: e.location.file, line: e.line!, column: e.column! } : {}),
    ...(e.hint !== undefined ? { hint: e.hint } : {}),
  };
}

/**
 * The static problems rendering did not already report at the same place: same code, or a hook that failed
 * there, or (for an unknown variable) the error rendering gave. Duplicates among themselves go too.
 */
function notFoundBy(found: readonly Problem[], statics: readonly Problem[]): Problem[] {
  const place = (p: Problem) => `${p.file}\0${p.line}\0${p.column}`;
  const seen = new Set(found.map((p) => `${p.code}\0${place(p)}`));
  for (const p of found) {
    if (p.code === 'HOOK_FAILED') seen.add(`*\0${place(p)}`);
    if (p.code === 'EPP_UNKNOWN_VARIABLE') seen.add(`ANALYSIS_UNKNOWN_VARIABLE\0${place(p)}`);
  }
  const out: Problem[] = [];
  for (const p of statics) {
    const key = `${p.code}\0${place(p)}`;
    if (seen.has(key) || seen.has(`*\0${place(p)}`)) continue;
    seen.add(key);
    out.push(p);
  }
  return out;
}

/** A warning for each file whose bytes or mode differ between two plans of one project. */
function unstableOutputs(project: Project, a: RenderPlan, b: RenderPlan): Problem[] {
  const again = new Map(b.files.map((f) => [f.path, f]));
  const problems: Problem[] = [];
  for (const f of a.files) {
    const g = again.get(f.path);
    if (g && g.mode === f.mode && g.empty === f.empty && Buffer.from(g.content).equals(f.content)) continue;
    const dir = project.available.get(f.template)?.dir;
    problems.push({
      severity: 'warning',
      code: 'RENDER_NOT_IDEMPOTENT',
      message: `the output of '${f.path}' (template '${f.template}') differs between two renders`,
      ...(dir !== undefined ? { file: join(dir, f.source), line: 1, column: 1 } : {}),
      hint: 'a hook or template depends on the time or on chance; every apply would change this file',
    });
  }
  return problems;
}

function errorsFirst(problems: readonly Problem[]): Problem[] {
  return [
    ...problems.filter((p) => p.severity === 'error'),
    ...problems.filter((p) => p.severity !== 'error'),
  ];
}

/** True when any problem is an error. */
export function hasErrors(problems: readonly Problem[]): boolean {
  return problems.some((p) => p.severity === 'error');
}
