/**
 * Edits of `.sync.yml` made for the web interface's forms and the fleet's overrides: what they change,
 * and what they keep (comments, order, and the text of values they do not change).
 */
import { describe, expect, it } from 'vitest';
import { parseSyncConfig } from '../../src/engine/project-config.js';
import { applyOverrides, setSection } from '../../src/engine/sync-edit.js';
import { toJson } from '../../src/engine/yaml-data.js';

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

/**
 * `.sync.yml` is read as YAML 1.1 (as PDK's Psych reads it), where a plain `no`, `off`, `010`, `1:30` or
 * `2024-01-31` is no string: a string written there must be quoted, or it comes back as a boolean, a
 * number or a date (a fleet's `selected_profile: 'off'` would turn into `false`).
 */
describe('strings that YAML 1.1 reads otherwise are written quoted', () => {
  const STRINGS = ['no', 'off', 'yes', '010', '1:30', '1_000', '2024-01-31', '~', 'null'];
  const settingsOf = (text: string) =>
    toJson(parseSyncConfig(text, '/project/.sync.yml', '/project').settings.puppet_lint) as Record<
      string,
      unknown
    >;

  it('by the fleet: in a new section, a new key, a replaced scalar and a list', () => {
    const settings = Object.fromEntries(STRINGS.map((s, i) => [`k${i}`, s]));
    const fresh = applyOverrides('pdk_template:\n  version: 2\n', {
      settings: { puppet_lint: { ...settings, list: STRINGS } },
    }).text;
    expect(settingsOf(fresh)).toEqual({ ...settings, list: STRINGS });
    const replaced = applyOverrides(TEXT, {
      settings: { puppet_lint: { fail_on_warnings: 'off', x: 'no' } },
    });
    expect(settingsOf(replaced.text)).toMatchObject({ fail_on_warnings: 'off', x: 'no' });
    expect(replaced.text).toMatch(/fail_on_warnings: "off"\n/);
  });

  it('by the web interface: a section set whole or key by key', () => {
    const fresh = setSection('pdk_template:\n  version: 2\n', 'puppet_lint', { a: 'on', list: STRINGS }).text;
    expect(settingsOf(fresh)).toEqual({ a: 'on', list: STRINGS });
    const replaced = setSection(TEXT, 'puppet_lint', { relative: 'no', fail_on_warnings: true }).text;
    expect(settingsOf(replaced)).toEqual({ relative: 'no', fail_on_warnings: true });
    expect(replaced).toMatch(/relative: "no" +# why\n/);
  });

  it('keeps the plain spelling of values it does not change, and writes other strings plain', () => {
    const text = applyOverrides('puppet_lint:\n  a: yes\n', {
      settings: { puppet_lint: { b: 'plain' } },
    }).text;
    expect(text).toBe('puppet_lint:\n  a: yes\n  b: plain\n');
  });
});
