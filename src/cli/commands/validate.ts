/**
 * `pantograph validate`: every problem of the project at once (loading, composition, settings, hooks,
 * rendering every file in memory), each with file:line:col. Exit 1 when any is an error, 0 with
 * warnings only. A thin layer over `validateProject`.
 */
import { hasErrors, validateProject } from '../../engine/validate.js';
import type { Io } from '../io.js';
import type { GlobalOptions } from '../main.js';
import {
  type EngineFlags,
  jsonProblem,
  plural,
  printJson,
  printProblems,
  problemCounts,
  projectDir,
  projectOptions,
} from '../report.js';

export async function validate(io: Io, global: GlobalOptions, flags: EngineFlags): Promise<number> {
  const { problems, plan } = await validateProject(projectDir(io, global), projectOptions(flags));
  const failed = hasErrors(problems);
  const errors = problems.filter((p) => p.severity === 'error').length;
  if (global.format === 'json') {
    printJson(io, {
      valid: !failed,
      errors,
      warnings: problems.length - errors,
      templates: plan?.templates.map((t) => t.name) ?? [],
      files: plan?.files.filter((f) => !f.empty).length ?? 0,
      problems: problems.map(jsonProblem),
    });
    return failed ? 1 : 0;
  }
  printProblems(io, problems);
  const scope = plan
    ? ` (${plural(plan.templates.length, 'template')}, ${plural(plan.files.filter((f) => !f.empty).length, 'file')})`
    : '';
  io.out(`${failed ? 'invalid' : 'valid'}${scope}: ${problemCounts(problems)}\n`);
  return failed ? 1 : 0;
}
