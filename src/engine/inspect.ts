/**
 * Inspection of a project's whole tree (DESIGN 9, Heat's NestedParameters adapted): project -> applied
 * templates -> their files -> the `epp()` call sites in them, recursively. Every parameter says what it
 * is (`Type`, `Description`), what it gets before the project layer (`Default`), what the project or the
 * calling template supplies (`Value`; `null` when only known at render time), where the value comes from
 * (`Origin`), and `Required: true` when it has neither Default nor Value: those a user must supply.
 *
 * Each call site is its own node, with its own values, as Heat lists each resource instance: a partial
 * called from two places appears twice. Building the tree is static (the ASTs, every branch) on top of a
 * plan, which gives each template's settings and their origins; `validate` uses the problems found on the
 * way (`buildTree`), the library the tree alone (`inspect`).
 *
 * Here: the tree of a project, and a template's node (its files). The tree's types are in inspect/tree.ts;
 * a template's node is built by a chain of classes, one layer per file: SettingsInspector
 * (inspect/setting-parameters.ts) -> PartialsInspector (inspect/partials.ts) -> CallSiteInspector
 * (inspect/call-sites.ts) -> TemplateInspector (here). A template's schema and the labels of its types
 * are in inspect/schema.ts, the helpers the layers share in inspect/helpers.ts.
 */
import type { ParameterNode } from '../epp/ast.js';
import { didYouMeanHint } from '../shared/did-you-mean.js';
import { CallSiteInspector } from './inspect/call-sites.js';
import { eppDefault, leadingComment, parameter, setKey } from './inspect/helpers.js';
import type { InspectFile, InspectParameter, InspectTemplate, InspectTree } from './inspect/tree.js';
import type { TemplateFile } from './model.js';
import { type DetailedPlan, planDetailed } from './plan.js';
import type { Project } from './project.js';
import type { Problem } from './render-plan.js';
import { sourceIdentity } from './sources/index.js';
import {
  problemAt,
  unknownFunctionProblems,
  unknownSettingProblems,
  unknownVariableProblems,
} from './static-analysis.js';

export type {
  InspectCall,
  InspectFile,
  InspectOrigin,
  InspectParameter,
  InspectTemplate,
  InspectTree,
} from './inspect/tree.js';

/** The whole tree of a loaded project (plans it: pure, nothing is written). */
export async function inspect(project: Project): Promise<InspectTree> {
  return buildTree(project, await planDetailed(project)).tree;
}

/** The tree and the problems found statically on the way (for `validate`). */
export function buildTree(
  project: Project,
  detailed: DetailedPlan,
): { tree: InspectTree; problems: Problem[] } {
  const problems: Problem[] = [];
  const templates: Record<string, InspectTemplate> = {};
  for (const r of detailed.templates) {
    setKey(templates, r.template.name, new TemplateInspector(project, r, problems).inspect());
  }
  const tree: InspectTree = {
    Project: { Name: project.name, Root: project.root, IsNew: project.isNew },
    Templates: templates,
  };
  return { tree, problems };
}

/** One template's node of the tree: its settings, its files, and their call sites. */
class TemplateInspector extends CallSiteInspector {
  inspect(): InspectTemplate {
    const t = this.t;
    const files: Record<string, InspectFile> = {};
    for (const f of t.files) setKey(files, f.source, this.file(f));
    this.checkPartials();
    const spec = t.source.spec;
    return {
      Type: t.manifest.type,
      Description: t.manifest.description,
      Title: t.manifest.name,
      Version: t.manifest.version ?? null,
      Source: {
        Index: t.source.index,
        Type: spec.type,
        Location: sourceIdentity(spec),
        ...(spec.ref !== undefined ? { Ref: spec.ref } : {}),
        ...(t.source.commit !== undefined ? { Commit: t.source.commit } : {}),
      },
      Parameters: this.settings,
      Files: files,
    };
  }

  private file(f: TemplateFile): InspectFile {
    const base = {
      Path: f.output,
      Kind: f.kind,
      Template: f.isTemplate,
      Rendered: this.r.files.some((p) => p.source === f.source),
      File: f.absPath,
      Description: null,
    };
    if (!f.isTemplate) return { ...base, Parameters: {}, NestedParameters: {} };
    const parsed = this.parse(f.absPath);
    if (!parsed.ast || !parsed.analysis) {
      return { ...base, Parameters: {}, NestedParameters: {}, Error: parsed.error ?? 'unreadable' };
    }
    const { ast, analysis, source } = parsed;
    const settingNames = Object.keys(this.r.settings);
    const parameters: Record<string, InspectParameter> = {};
    if (ast.params) {
      // Rendering checked the files it rendered; statically, the others (init files of an existing
      // project, files a hook drops), unless settings change per file or were never resolved.
      const check = !base.Rendered && !this.t.hooks.before_file_render && !this.unresolved;
      for (const p of ast.params) setKey(parameters, p.name, this.fileParameter(p, source, f, check));
    } else {
      for (const read of analysis.freeReads) {
        if (Object.hasOwn(this.r.settings, read.name) && !Object.hasOwn(parameters, read.name)) {
          setKey(parameters, read.name, this.setting(read.name, this.typeOf(read.name)));
        }
      }
    }
    if (!this.checked.has(f.absPath)) {
      this.checked.add(f.absPath);
      this.problems.push(...unknownFunctionProblems(analysis, f.absPath, source));
    }
    if (!this.unresolved) {
      const visible = new Set(ast.params ? ast.params.map((p) => p.name) : settingNames);
      this.problems.push(
        ...unknownVariableProblems(analysis, f.absPath, source, {
          visible,
          candidates: [...new Set([...visible, ...settingNames])],
          what: ast.params
            ? `a parameter of this file (a file with parameters receives only those; $settings has them all)`
            : `a setting of template '${this.t.name}'`,
        }),
      );
      if (this.schema.additionalProperties === false) {
        const declared = [...new Set([...Object.keys(this.properties), ...settingNames])];
        this.problems.push(...unknownSettingProblems(analysis, f.absPath, source, declared, this.t.name));
      }
    }
    return {
      ...base,
      Description: leadingComment(source, this.t.manifest.delimiters),
      Parameters: parameters,
      NestedParameters: this.nested(analysis, source, f.absPath, [f.absPath]),
    };
  }

  /** A declared parameter of an output file: filled from the setting of its name. */
  private fileParameter(p: ParameterNode, source: string, f: TemplateFile, check: boolean): InspectParameter {
    const type = p.valueType ? source.slice(p.valueType.start, p.valueType.end) : 'Any';
    const setting = this.setting(p.name, type);
    const has = (k: 'Default' | 'Value') => Object.hasOwn(setting, k);
    if (check && !Object.hasOwn(this.r.settings, p.name)) {
      const hint = didYouMeanHint(p.name, Object.keys(this.r.settings));
      this.problems.push(
        problemAt(
          'warning',
          'RENDER_UNKNOWN_PARAMETER',
          `parameter '${p.name}' of ${this.t.name}/${f.source} matches no setting of template '${this.t.name}'`,
          f.absPath,
          source,
          p.start,
          hint,
        ),
      );
    }
    if (has('Default') || has('Value')) return setting;
    if (p.defaultValue) return parameter(type, setting.Description, eppDefault(p, source));
    if (check) {
      this.problems.push(
        problemAt(
          'error',
          'RENDER_MISSING_PARAMETER',
          `template '${this.t.name}', file ${f.source}: required parameter '${p.name}' has no value`,
          f.absPath,
          source,
          p.start,
          `set '${p.name}' in the '${this.t.name}' section of .sync.yml, or give the parameter a default`,
        ),
      );
    }
    return setting;
  }
}
