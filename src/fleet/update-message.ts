/**
 * The commit message of `fleet update`: as apply's (messages.ts), with the git sources it moved, so the
 * history says which template commits a repository took and from which it came.
 */
import type { RenderPlan } from '../engine/render-plan.js';
import { moveLine, type SourceMove } from '../engine/source-moves.js';
import { subjectOf } from './messages.js';
import type { RepositoryRecord } from './record.js';

export function updateMessage(
  plan: RenderPlan,
  moves: readonly SourceMove[],
  templates: RepositoryRecord['templates'],
  files: RepositoryRecord['files'],
): string {
  return [
    subjectOf(plan),
    '',
    'Applied by `pantograph fleet update`. Sources:',
    ...moves.map((m) => `- ${moveLine(m)}`),
    '',
    'Templates:',
    ...templates.map((t) => `- ${t.name}${t.version ? ` ${t.version}` : ''} (${t.source})`),
    ...(files.length > 0 ? ['', 'Files:', ...files.map((f) => `- ${f.path} (${f.state})`)] : []),
  ].join('\n');
}
