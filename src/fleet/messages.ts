/**
 * What a fleet run says in git and on the forge: the templates applied (with versions and sources), the
 * commit message and the pull request's title and body.
 */
import type { RenderPlan } from '../engine/render-plan.js';
import { moveLine, type SourceMove } from '../engine/source-moves.js';
import { engineVersion } from '../version.js';
import type { RepositoryRecord } from './record.js';

export function templatesOf(plan: RenderPlan): RepositoryRecord['templates'] {
  return plan.templates.map((t) => ({
    name: t.name,
    ...(t.version !== undefined ? { version: t.version } : {}),
    source: sourceLabel(plan, t.source),
  }));
}

function sourceLabel(plan: RenderPlan, index: number): string {
  const s = plan.sources[index];
  if (!s) return '?';
  if (s.type === 'default') return `default (pantograph ${engineVersion()})`;
  if (s.type === 'git')
    return `${s.location}@${s.ref ?? 'HEAD'}${s.commit ? ` (${s.commit.slice(0, 12)})` : ''}`;
  return s.location;
}

export function subjectOf(plan: RenderPlan): string {
  const labels = [...new Set(plan.templates.map((t) => sourceLabel(plan, t.source)))];
  return `Update from templates: ${labels.join(', ')}`;
}

/**
 * The commit message: the subject, the templates applied, the files written; for `fleet update`, the git
 * sources it moved too, so the history says which template commits a repository took and from where.
 */
export function commitMessage(
  plan: RenderPlan,
  templates: RepositoryRecord['templates'],
  files: RepositoryRecord['files'],
  moves?: readonly SourceMove[],
  lock?: RepositoryRecord['lock'],
): string {
  const sources = moves ? ['', 'Sources:', ...moves.map((m) => `- ${moveLine(m)}`)] : [];
  // A lock made by this commit is named: it may be all the commit adds (a first apply in line).
  const listed = [
    ...files.map((f) => `- ${f.path} (${f.state})`),
    ...(lock === 'created' ? ['- .pantograph.lock (create: records the files Pantograph manages here)'] : []),
  ];
  return [
    subjectOf(plan),
    '',
    `Applied by \`pantograph fleet ${moves ? 'update' : 'apply'}\`.`,
    ...sources,
    '',
    'Templates:',
    ...templates.map((t) => `- ${t.name}${t.version ? ` ${t.version}` : ''} (${t.source})`),
    ...(listed.length > 0 ? ['', 'Files:', ...listed] : []),
  ].join('\n');
}

export function prBody(
  templates: RepositoryRecord['templates'],
  changed: readonly string[],
  moves?: readonly SourceMove[],
): string {
  const sources = moves ? ['', '### Template sources', ...moves.map((m) => `- ${moveLine(m)}`)] : [];
  return [
    `This change brings the repository in line with its templates (\`pantograph fleet ${moves ? 'update' : 'apply'}\`).`,
    ...sources,
    '',
    '### Templates',
    ...templates.map((t) => `- \`${t.name}\`${t.version ? ` ${t.version}` : ''} from ${t.source}`),
    '',
    '### Files changed',
    ...changed.map((line) => {
      const [state, ...path] = line.split('\t');
      return `- \`${path.join(' -> ')}\` (${{ A: 'added', M: 'modified', D: 'deleted' }[state?.[0] ?? ''] ?? state})`;
    }),
  ].join('\n');
}
