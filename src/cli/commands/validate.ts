/**
 * `pantograph validate`: every problem of the project at once (loading, composition, settings, hooks,
 * rendering every file in memory, static analysis of every template), each with file:line:col. Exit 1
 * when any is an error, 0 with warnings only. A thin layer over `validateProject`.
 *
 * `--show-nested` also prints the project's tree: templates, their settings, files and nested `epp()`
 * call sites with every parameter's type, default, value and origin (`nested` in the JSON output).
 */
import type { InspectCall, InspectOrigin, InspectParameter, InspectTree } from '../../engine/inspect.js';
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
  shortPath,
} from '../report.js';

export interface ValidateFlags extends EngineFlags {
  readonly showNested?: boolean;
}

export async function validate(io: Io, global: GlobalOptions, flags: ValidateFlags): Promise<number> {
  const showNested = flags.showNested === true;
  const { problems, plan, tree } = await validateProject(projectDir(io, global), projectOptions(flags, io), {
    tree: showNested,
  });
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
      ...(showNested ? { nested: tree ?? null } : {}),
    });
    return failed ? 1 : 0;
  }
  printProblems(io, problems);
  if (tree) io.out(treeText(tree, io.cwd));
  const scope = plan
    ? ` (${plural(plan.templates.length, 'template')}, ${plural(plan.files.filter((f) => !f.empty).length, 'file')})`
    : '';
  io.out(`${failed ? 'invalid' : 'valid'}${scope}: ${problemCounts(problems)}\n`);
  return failed ? 1 : 0;
}

/** The tree, indented two spaces per level: project, templates, settings, files, nested calls. */
export function treeText(tree: InspectTree, cwd: string): string {
  const lines: string[] = [];
  const put = (depth: number, text: string) => lines.push(`${'  '.repeat(depth)}${text}`);
  const where = (file: string, line?: number, column?: number) =>
    `${shortPath(file, cwd)}${line !== undefined ? `:${line}:${column ?? 1}` : ''}`;
  const params = (depth: number, list: Readonly<Record<string, InspectParameter>>) => {
    for (const [name, p] of Object.entries(list)) put(depth, parameterText(name, p, where));
  };
  const calls = (depth: number, list: Readonly<Record<string, InspectCall>>) => {
    for (const call of Object.values(list)) {
      const target = call.Type ?? '(path computed at render time)';
      put(depth, `epp ${target} (line ${call.Line}:${call.Column})${call.Error ? `: ${call.Error}` : ''}`);
      if (call.Description) put(depth + 1, `# ${call.Description}`);
      params(depth + 1, call.Parameters);
      calls(depth + 1, call.NestedParameters);
    }
  };
  const p = tree.Project;
  put(0, `project ${p.Name}${p.IsNew ? ' (new)' : ''}`);
  for (const [name, t] of Object.entries(tree.Templates)) {
    const version = t.Version !== null ? ` ${t.Version}` : '';
    put(1, `template ${name}${version} (${t.Type}, source ${t.Source.Index}: ${t.Source.Location})`);
    put(2, `# ${t.Description}`);
    if (Object.keys(t.Parameters).length > 0) {
      put(2, 'settings:');
      params(3, t.Parameters);
    }
    for (const [source, f] of Object.entries(t.Files)) {
      const notes = [
        f.Kind === 'init' ? 'init' : '',
        f.Template ? '' : 'copied',
        f.Rendered ? '' : 'not rendered',
      ]
        .filter((n) => n !== '')
        .join(', ');
      put(2, `file ${f.Path} (${source}${notes ? `; ${notes}` : ''})${f.Error ? `: ${f.Error}` : ''}`);
      if (f.Description) put(3, `# ${f.Description}`);
      params(3, f.Parameters);
      calls(3, f.NestedParameters);
    }
  }
  return `${lines.join('\n')}\n`;
}

/** `name: Type  default X  value Y  <- origin`, or `REQUIRED` when neither default nor value. */
function parameterText(
  name: string,
  p: InspectParameter,
  where: (file: string, line?: number, column?: number) => string,
): string {
  const parts = [`${name}: ${p.Type}`];
  if (Object.hasOwn(p, 'Default')) parts.push(`default ${valueText(p.Default)}`);
  if (Object.hasOwn(p, 'Value'))
    parts.push(`value ${p.Value === null ? '(known at render time)' : valueText(p.Value)}`);
  if (p.Origin) parts.push(`<- ${originText(p.Origin, where)}`);
  if (p.Required) parts.push('REQUIRED');
  const text = parts.join('  ');
  return p.Description ? `${text}  # ${p.Description}` : text;
}

/** Long values are cut in the text tree (the JSON output has them whole). */
const MAX_VALUE_TEXT = 60;

function valueText(value: unknown): string {
  const text = JSON.stringify(value) ?? 'undef';
  return text.length > MAX_VALUE_TEXT ? `${text.slice(0, MAX_VALUE_TEXT - 1)}…` : text;
}

function originText(
  o: InspectOrigin,
  where: (file: string, line?: number, column?: number) => string,
): string {
  const at = o.File !== undefined ? ` (${where(o.File, o.Line, o.Column)})` : '';
  switch (o.Layer) {
    case 'default':
      return 'template default';
    case 'shared':
      return `shared setting from ${o.Detail ?? 'its publishers'}`;
    case 'hook':
      return `hook ${o.Detail ?? ''}`.trimEnd();
    case 'project':
      return `project${at}`;
    case 'caller':
      // The call is in the file just above: its line and column say enough.
      return `caller${o.Detail !== undefined ? ` ${o.Detail}` : ''}${o.Line !== undefined ? ` (${o.Line}:${o.Column})` : ''}`;
    case 'epp_default':
      return "the parameter's default";
  }
}
