/**
 * Edits of `.sync.yml` made for the web interface's forms and the fleet's overrides: what they change,
 * and what they keep (comments, order, and the text of values they do not change).
 */
import { describe, expect, it } from 'vitest';
import { applyOverrides, setSection } from '../../src/engine/sync-edit.js';

const TEXT = `# the project
pdk_template:
  version: 2
  templates: [rubocop, ---vscode]
# about lint
puppet_lint:
  # keep this
  relative: false  # why
  fail_on_warnings: true
`;

describe('setSection', () => {
  it('sets changed keys, removes absent ones, and keeps comments', () => {
    const { text, changed } = setSection(TEXT, 'puppet_lint', {
      relative: false,
      disabled_checks: ['80chars'],
    });
    expect(changed).toEqual(['puppet_lint.fail_on_warnings', 'puppet_lint.disabled_checks']);
    expect(text).toMatch(/# about lint\npuppet_lint:\n {2}# keep this\n {2}relative: false +# why\n/);
    expect(text).not.toContain('fail_on_warnings');
    expect(text).toContain('disabled_checks:\n    - 80chars');
  });

  it('leaves the text byte for byte when nothing changes, and adds a new section at the end', () => {
    expect(setSection(TEXT, 'puppet_lint', { relative: false, fail_on_warnings: true })).toEqual({
      text: TEXT,
      changed: [],
    });
    const added = setSection(TEXT, 'gemfile', { gems: [] }).text;
    expect(added).toMatch(
      /# the project\n(.*\n)*# about lint\npuppet_lint:\n {2}# keep this\n(.*\n)*gemfile:\n {2}gems: \[\]\n$/,
    );
  });
});

describe('applyOverrides (the fleet)', () => {
  it('sets nested settings key by key and replaces template_sources', () => {
    const { text, changed } = applyOverrides(TEXT, {
      templateSources: [{ type: 'git', location: 'https://x/t.git', ref: 'v2' }],
      settings: { puppet_lint: { relative: true } },
    });
    expect(changed).toEqual(['pdk_template.template_sources', 'puppet_lint.relative']);
    expect(text).toMatch(/ {2}# keep this\n {2}relative: true +# why\n {2}fail_on_warnings: true/);
    expect(text).toContain('ref: v2');
  });
});
