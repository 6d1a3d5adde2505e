/**
 * `pantograph list [--tag T]`: the templates the project's sources offer, first source winning, with the
 * ones hidden by a same-named template of an earlier source noted.
 */
import type { LoadedTemplate, TemplateLocation } from '../../engine/model.js';
import { loadProject, type Project } from '../../engine/project.js';
import { listTemplates } from '../../engine/sources/index.js';
import { didYouMeanHint } from '../../shared/did-you-mean.js';
import { foldedTable } from '../folded-table.js';
import { type Io, sayErr, sayOut } from '../io.js';
import type { GlobalOptions } from '../main.js';
import {
  type EngineFlags,
  engineCommand,
  printJson,
  projectDir,
  projectOptions,
  sourceJson,
  sourceLabel,
} from '../report.js';

export interface ListFlags extends EngineFlags {
  readonly tag?: string;
}

function tagHint(tag: string, available: Iterable<LoadedTemplate>): string {
  const tags = [...new Set([...available].flatMap((t) => t.manifest.tags))].sort();
  if (tags.length === 0) return 'no template here has a tag';
  return didYouMeanHint(tag, tags) ?? `the tags here: ${tags.join(', ')}`;
}

export async function list(io: Io, global: GlobalOptions, flags: ListFlags): Promise<number> {
  return engineCommand(io, global, async () => {
    const project = await loadProject(projectDir(io, global), projectOptions(flags, io));
    const listing = listTemplates(project.sources);
    const matches = (t: LoadedTemplate) => flags.tag === undefined || t.manifest.tags.includes(flags.tag);
    const templates = [...project.available.values()].filter(matches);
    const shadowed = listing.shadowed.filter((s) => {
      const winner = project.available.get(s.name);
      return winner !== undefined && matches(winner);
    });
    // A template whose template.json cannot be read or parsed is not available; say so rather than hide it.
    const broken =
      flags.tag === undefined ? listing.templates.filter((l) => !project.available.has(l.name)) : [];
    if (global.format === 'json') {
      printJson(io, {
        templates: templates.map((t) => templateJson(project, t)),
        shadowed: shadowed.map((s) => shadowJson(project, s)),
        broken: broken.map((b) => ({ name: b.name, source: sourceJson(b.source) })),
      });
      return 0;
    }
    for (const b of broken) {
      sayErr(
        io,
        `warning: template '${b.name}' in ${sourceLabel(b.source.spec)} cannot be loaded; run \`pantograph validate\` to see why\n`,
      );
    }
    if (templates.length === 0) {
      io.out(
        flags.tag === undefined ? 'no templates available\n' : `no template has the tag '${flags.tag}'\n`,
      );
      // A misspelt tag (`--tag lnt`) lists nothing: point at the one meant, or at the tags there are.
      if (flags.tag !== undefined) sayErr(io, `hint: ${tagHint(flags.tag, project.available.values())}\n`);
      return 0;
    }
    const rows = templates.map((t) => [
      t.name,
      t.manifest.version ?? '-',
      appliedLabel(project, t),
      sourceLabel(t.source.spec),
      t.manifest.tags.join(','),
      t.manifest.description,
    ]);
    // On a terminal, a description folds under its column, or under the name's row where that is narrow.
    io.out(
      foldedTable(['NAME', 'VERSION', 'APPLIED', 'SOURCE', 'TAGS', 'DESCRIPTION'], rows, io.widths?.out),
    );
    for (const s of shadowed) {
      const winner = project.available.get(s.name)!;
      sayOut(
        io,
        `note: '${s.name}' from ${sourceLabel(s.source.spec)} is shadowed by the one from ${sourceLabel(winner.source.spec)}\n`,
      );
    }
    return 0;
  });
}

/** `yes` (listed), `always` (always_apply, not excluded), `excluded` (`---name`) or `no`. */
function appliedLabel(project: Project, t: LoadedTemplate): string {
  if (project.config.excluded.some((r) => r.name === t.name) && t.manifest.always_apply) return 'excluded';
  if (!project.applied.includes(t)) return 'no';
  return project.config.templates.some((r) => r.name === t.name) ? 'yes' : 'always';
}

function templateJson(project: Project, t: LoadedTemplate): Record<string, unknown> {
  return {
    name: t.name,
    title: t.manifest.name,
    description: t.manifest.description,
    version: t.manifest.version ?? null,
    tags: t.manifest.tags,
    always_apply: t.manifest.always_apply,
    applied: appliedLabel(project, t),
    source: sourceJson(t.source),
  };
}

function shadowJson(project: Project, s: TemplateLocation): Record<string, unknown> {
  return {
    name: s.name,
    source: sourceJson(s.source),
    by: sourceJson(project.available.get(s.name)!.source),
  };
}
