/**
 * What a fleet run writes in git and on the forge names the command that made the change, and for
 * `fleet update` the template commits the repository moved to.
 */
import { describe, expect, it } from 'vitest';
import type { RenderPlan } from '../../src/engine/render-plan.js';
import { commitMessage, prBody } from '../../src/fleet/messages.js';

const plan = {
  templates: [{ name: 'base', source: 0 }],
  sources: [{ type: 'git', location: 'https://git.example.com/t.git', ref: 'main', commit: 'b'.repeat(40) }],
} as unknown as RenderPlan;
const templates = [{ name: 'base', version: '1.2.0', source: 'https://git.example.com/t.git@main' }];
const moves = [
  { location: 'https://git.example.com/t.git', ref: 'main', from: 'a'.repeat(40), to: 'b'.repeat(40) },
];

describe('fleet messages', () => {
  it('say apply for an apply, and update with the sources moved for an update', () => {
    const files = [{ path: 'README.md', state: 'changed' as const }];
    expect(commitMessage(plan, templates, files)).toContain(
      'Applied by `pantograph fleet apply`.\n\nTemplates:',
    );
    const update = commitMessage(plan, templates, files, moves);
    expect(update).toContain(
      'Applied by `pantograph fleet update`.\n\nSources:\n- https://git.example.com/t.git#main: aaaaaaaaaaaa -> bbbbbbbbbbbb\n',
    );
    expect(prBody(templates, ['M\tREADME.md'])).toMatch(/^.*\(`pantograph fleet apply`\)\.\n\n### Templates/);
    const body = prBody(templates, ['M\tREADME.md'], moves);
    expect(body).toContain(
      '(`pantograph fleet update`).\n\n### Template sources\n- https://git.example.com/t.git#main: aaaaaaaaaaaa -> bbbbbbbbbbbb\n',
    );
  });
});
