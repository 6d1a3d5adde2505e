/**
 * `pantograph show <template>`: what a template is and what it would do in this project: description,
 * tags, version, source, every setting (type, default, the project's value, the final value and where it
 * came from, description), its subscriptions and publications, and its output files. A template the
 * project does not apply is shown as if it were added last, so a user can look before adding it.
 */

import { planDetailed } from '../../engine/plan.js';
import { loadProject, type Project } from '../../engine/project.js';
import type { Problem } from '../../engine/render-plan.js';
import { type SettingView, settingOriginText, settingViews } from '../../engine/setting-views.js';
import { dataEquals } from '../../engine/settings.js';
import { publishersByName } from '../../engine/shared-settings.js';
import { listTemplates } from '../../engine/sources/index.js';
import { didYouMeanHint } from '../../shared/did-you-mean.js';
import { UsageError } from '../errors.js';
import type { Io } from '../io.js';
import type { GlobalOptions } from '../main.js';
import {
  type EngineFlags,
  engineCommand,
  jsonData,
  plural,
  printJson,
  projectDir,
  projectOptions,
  shortPath,
  showData,
  sourceJson,
  sourceLabel,
} from '../report.js';

export async function show(io: Io, global: GlobalOptions, name: string, flags: EngineFlags): Promise<number> {
  return engineCommand(io, global, async () => {
    const project = await loadProject(projectDir(io, global), projectOptions(flags, io));
    const t = project.available.get(name);
    if (!t && listTemplates(project.sources).templates.some((l) => l.name === name)) {
      throw new UsageError(`template '${name}' cannot be loaded`, 'run `pantograph validate` to see why');
    }
    if (!t) {
      throw new UsageError(
        `unknown template '${name}': no template source has it`,
        didYouMeanHint(name, project.available.keys()) ??
          'run `pantograph list` to see the available templates',
      );
    }
    const applied = project.applied.includes(t);
    const asApplied: Project = applied ? project : { ...project, applied: [...project.applied, t] };
    const detailed = await planDetailed(asApplied);
    const resolved = detailed.templates.find((r) => r.template === t)!;
    const settings = settingViews(asApplied, resolved);
    const subscriptions = t.manifest.setting_subscriptions.map((s) => ({
      name: s,
      publishers: (publishersByName(asApplied.applied).get(s) ?? [])
        .filter((p) => p !== t)
        .map((p) => p.name),
      // What arrived, not what after_shared_settings made of it: that change is the hook's.
      value: resolved.received[s],
      changedBy: dataEquals(resolved.received[s] ?? null, resolved.defaults[s] ?? null)
        ? undefined
        : 'after_shared_settings',
    }));
    const publications = Object.entries(t.manifest.shared_settings).map(([s, decl]) => ({
      name: s,
      description: decl.description,
      value: resolved.published[s],
      subscribers: asApplied.applied
        .filter((o) => o !== t && o.manifest.setting_subscriptions.includes(s))
        .map((o) => o.name),
    }));
    const errors = detailed.plan.problems.filter((p) => p.severity === 'error').length;
    const settingErrors = (setting: string) => errorsOfSetting(detailed.plan.problems, t.name, setting);
    if (global.format === 'json') {
      printJson(io, {
        name: t.name,
        title: t.manifest.name,
        description: t.manifest.description,
        version: t.manifest.version ?? null,
        tags: t.manifest.tags,
        always_apply: t.manifest.always_apply,
        applied,
        source: sourceJson(t.source),
        settings: settings.map((v) => ({
          ...settingJson(v),
          errors: settingErrors(v.name).map((p) => ({
            message: p.message,
            ...(p.file !== undefined ? { file: p.file, line: p.line ?? null, column: p.column ?? null } : {}),
            ...(p.hint !== undefined ? { hint: p.hint } : {}),
          })),
        })),
        subscriptions: subscriptions.map((s) => ({
          name: s.name,
          publishers: s.publishers,
          ...(s.value !== undefined ? { value: jsonData(s.value) } : {}),
          ...(s.changedBy !== undefined ? { changed_by: s.changedBy } : {}),
        })),
        publications: publications.map((p) => ({
          name: p.name,
          description: p.description ?? null,
          ...(p.value !== undefined ? { value: jsonData(p.value) } : {}),
          subscribers: p.subscribers,
        })),
        files: resolved.files.map((f) => ({ path: f.path, source: f.source, kind: f.kind, empty: f.empty })),
        errors,
      });
      return 0;
    }
    const out: string[] = [];
    out.push(
      `${t.name}${t.manifest.name !== t.name ? ` (${t.manifest.name})` : ''} ${t.manifest.version ?? ''}`.trimEnd(),
    );
    out.push(`  ${t.manifest.description}`);
    out.push(`  source:  ${sourceLabel(t.source.spec)} (${t.source.spec.type})`);
    out.push(`  tags:    ${t.manifest.tags.join(', ')}`);
    out.push(
      `  applied: ${applied ? 'yes' : 'no (shown as if added last)'}${t.manifest.always_apply ? ', always_apply' : ''}`,
    );
    out.push('', 'Settings:');
    if (settings.length === 0) out.push('  (none)');
    for (const s of settings) {
      out.push(`  ${s.name} (${s.type})`);
      if (s.description !== undefined) out.push(`    ${s.description}`);
      out.push(`    default: ${showData(s.default)}`);
      out.push(`    project: ${showData(s.project)}`);
      out.push(
        `    value:   ${showData(s.value)}${s.origin ? `  <- ${settingOriginText(s.origin, (file) => shortPath(file, io.cwd))}` : ''}`,
      );
      // The value is shown as it is, so say at once when it is wrong (`validate` says the same).
      for (const p of settingErrors(s.name)) {
        const where = p.file !== undefined ? ` (${shortPath(p.file, io.cwd)}:${p.line}:${p.column})` : '';
        out.push(`    error:   ${p.message.slice(t.name.length + 2)}${where}`);
        if (p.hint !== undefined) out.push(`    hint:    ${p.hint}`);
      }
    }
    // An optional subscription: name the templates that would publish it if the project applied them.
    const unapplied = (name: string) => {
      const offered = (publishersByName([...project.available.values()]).get(name) ?? []).filter(
        (p) => p !== t,
      );
      if (offered.length === 0) return 'no template of the sources publishes it';
      return `no publisher applied; ${offered.map((p) => p.name).join(', ')} would publish it`;
    };
    out.push('', 'Subscribes to:');
    if (subscriptions.length === 0) out.push('  (nothing)');
    for (const s of subscriptions) {
      const from = s.publishers.length > 0 ? `published by ${s.publishers.join(', ')}` : unapplied(s.name);
      const hook = s.changedBy !== undefined ? `; then changed by hook ${s.changedBy}` : '';
      out.push(`  ${s.name}: ${showData(s.value)}  (${from}${hook})`);
    }
    out.push('', 'Publishes:');
    if (publications.length === 0) out.push('  (nothing)');
    for (const p of publications) {
      const to =
        p.subscribers.length > 0 ? `subscribers: ${p.subscribers.join(', ')}` : 'no subscriber applied';
      out.push(`  ${p.name}: ${showData(p.value)}  (${to})`);
      if (p.description !== undefined) out.push(`    ${p.description}`);
    }
    out.push('', 'Files:');
    if (resolved.files.length === 0) out.push('  (none)');
    for (const f of resolved.files) {
      out.push(`  ${f.path}${f.kind === 'init' ? ' (init)' : ''}${f.empty ? ' (empty: not written)' : ''}`);
    }
    io.out(`${out.join('\n')}\n`);
    if (errors > 0)
      io.err(`note: this project has ${plural(errors, 'error')}; run \`pantograph validate\` to see them\n`);
    return 0;
  });
}

function settingJson(s: SettingView): Record<string, unknown> {
  return {
    name: s.name,
    type: s.type,
    description: s.description ?? null,
    ...(s.templateDefault !== undefined ? { template_default: jsonData(s.templateDefault) } : {}),
    ...(s.default !== undefined ? { default: jsonData(s.default) } : {}),
    ...(s.project !== undefined ? { project: jsonData(s.project) } : {}),
    ...(s.value !== undefined ? { value: jsonData(s.value) } : {}),
    origin: s.origin ?? null,
  };
}

/** The errors of a setting (or of a key inside it) as the settings' checks word them: `t: setting 'x'`. */
function errorsOfSetting(problems: readonly Problem[], template: string, setting: string): Problem[] {
  const prefix = `${template}: setting '${setting}`;
  return problems.filter(
    (p) =>
      p.severity === 'error' &&
      p.code === 'SETTINGS_INVALID' &&
      p.message.startsWith(prefix) &&
      (p.message[prefix.length] === "'" || p.message[prefix.length] === '.'),
  );
}
