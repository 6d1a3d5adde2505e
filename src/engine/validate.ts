/**
 * `validateProject`: every problem of a project at once, from loading and from planning (which renders
 * every file in memory). Terminating load errors (no or unparsable `.sync.yml`, a V1 file, an unreachable
 * source) become problems too, so a caller gets one list whatever went wrong. Nothing is written.
 *
 * It plans twice and warns when a file's output differs (DESIGN 14): a hook or template that depends on
 * the time or on chance would make every `apply` change the project.
 * Static analysis of templates (DESIGN 9) will extend this later; the CLI's `validate` stays a thin layer.
 */
import { join } from 'node:path';
import { EngineError } from './errors.js';
import { plan } from './plan.js';
import { loadProject, type Project, type ProjectOptions } from './project.js';
import type { Problem, RenderPlan } from './render-plan.js';

export interface ValidationResult {
  /** Errors first, then warnings. */
  readonly problems: readonly Problem[];
  /** The plan, when loading got far enough to make one. */
  readonly plan?: RenderPlan;
}

export async function validateProject(dir: string, options: ProjectOptions = {}): Promise<ValidationResult> {
  let project: Project;
  try {
    project = await loadProject(dir, options);
  } catch (e) {
    if (!(e instanceof EngineError)) throw e;
    return { problems: errorsFirst(e.problems) };
  }
  const first = await plan(project);
  if (hasErrors(first.problems)) return { problems: first.problems, plan: first };
  const unstable = unstableOutputs(project, first, await plan(project));
  return { problems: [...first.problems, ...unstable], plan: first };
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
