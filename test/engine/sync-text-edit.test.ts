/**
 * The `.sync.yml` edits that `pantograph add template` and the web interface share (QA review qa21, H2,
 * M5, L3): what they change, and that everything else of the file stays byte for byte: comments, list
 * styles, `!replace`, and the spelling of values they do not change.
 */
import { describe, expect, it } from 'vitest';
import { parseSyncConfig } from '../../src/engine/project-config.js';
import { setSection } from '../../src/engine/sync-edit.js';
import { addTemplateText, removeTemplateText, setSectionText } from '../../src/engine/sync-text-edit.js';

const config = (text: string) => parseSyncConfig(text, '/p/.sync.yml', '/p');
const section = (text: string, template: string, settings: Record<string, unknown>) =>
  setSectionText(text, template, settings, setSection);

const LINT = `pdk_template:
  version: 2
  templates: [notes]   # notes file
puppet_lint:
  disabled_checks: !replace [140chars]   # only this
  big: 9007199254740993
  mode: 0755
  flag: yes
  title: "Hello"
`;

describe("a template's settings, as the page's form gives them", () => {
  it('adds to a `!replace` list keeping the tag and its comment; the values it does not change keep their spelling', () => {
    const { text, changed } = section(LINT, 'puppet_lint', {
      disabled_checks: ['140chars', 'documentation'],
      big: 9007199254740992, // the page's JSON number for 9007199254740993
      mode: 493,
      flag: true,
      title: 'Hello',
    });
    expect(changed).toEqual(['puppet_lint.disabled_checks']);
    expect(text).toBe(LINT.replace('[140chars]', '[140chars, documentation]'));
  });

  it('edits a block list and a nested mapping in place, keeps comments of the entries and lines it does not change', () => {
    const text = `pdk_template:
  version: 2
  templates: [notes]   # notes file
rakefile:
  # the imports
  imports:
    - a.rake   # first
  puppet_lint_config:
    relative: true   # keep
    fail_on_warnings: true
`;
    const out = section(text, 'rakefile', {
      imports: ['a.rake', 'b.rake'],
      puppet_lint_config: { relative: true, fail_on_warnings: false },
      extras: ['task :x'],
    }).text;
    expect(out).toBe(`pdk_template:
  version: 2
  templates: [notes]   # notes file
rakefile:
  # the imports
  imports:
    - a.rake   # first
    - b.rake
  puppet_lint_config:
    relative: true   # keep
    fail_on_warnings: false
  extras:
    - task :x
`);
    // A key the form no longer has is removed with its line; a section the file lacks is added at its end.
    expect(
      section(out, 'rakefile', {
        imports: ['a.rake', 'b.rake'],
        puppet_lint_config: { relative: true, fail_on_warnings: false },
      }).text,
    ).toBe(out.replace('  extras:\n    - task :x\n', ''));
    expect(section(text, 'notes', { title: 'x' }).text).toBe(`${text}notes:\n  title: x\n`);
  });

  it('drops quotes a value needed (a trailing space while typing), keeps quotes the user chose', () => {
    const typing = `pdk_template:\n  version: 2\nnotes:\n  title: "Hello "\n  other: "kept"\n`;
    expect(section(typing, 'notes', { title: 'Hello w', other: 'kept too' }).text).toBe(
      `pdk_template:\n  version: 2\nnotes:\n  title: Hello w\n  other: "kept too"\n`,
    );
  });
});

describe("a setting reset to the template's default (the page's *reset to default*)", () => {
  const NOTES = `---
# project settings
pdk_template:
  templates: [notes]   # the notes
notes:
  # the title, shown on top
  title: Hello   # mine
  lines: !replace [a, b]  # only these
other:
  x: 1
`;

  it('removes the key and its line alone, a `!replace` key too, the rest byte for byte', () => {
    expect(section(NOTES, 'notes', { lines: ['a', 'b'] })).toEqual({
      text: NOTES.replace('  title: Hello   # mine\n', ''),
      changed: ['notes.title'],
    });
    expect(section(NOTES, 'notes', { title: 'Hello' })).toEqual({
      text: NOTES.replace('  lines: !replace [a, b]  # only these\n', ''),
      changed: ['notes.lines'],
    });
  });

  it('removes the section when its last setting goes (not `notes: {}`), the other sections kept', () => {
    expect(section(NOTES, 'notes', {})).toEqual({
      text: NOTES.replace(/notes:\n( {2}.*\n)+/, ''),
      changed: ['notes'],
    });
    const last = 'pdk_template:\n  version: 2\nnotes:\n  title: x'; // no line break at the end
    expect(section(last, 'notes', {}).text).toBe('pdk_template:\n  version: 2\n');
  });
});

describe('templates added and removed (`pantograph add template`, the page)', () => {
  const FLOW = `pdk_template:
  version: 2
  templates: [rubocop]   # opt-ins
`;
  const BLOCK = `pdk_template:
  version: 2
  templates:
    - rubocop   # style
    - vscode    # editors
    - ---gemfile
`;
  it('adds in the list’s own style, keeping its comment; an exclusion becomes the name in place', () => {
    expect(addTemplateText(config(FLOW), 'editorconfig')).toBe(
      FLOW.replace('[rubocop]', '[rubocop, editorconfig]'),
    );
    expect(addTemplateText(config(BLOCK), 'gemfile')).toBe(BLOCK.replace('---gemfile', 'gemfile'));
    expect(addTemplateText(config(BLOCK), 'litmus')).toBe(`${BLOCK}    - litmus\n`);
  });

  it('removes the entry alone, the others keeping their comments; an always-applied one is excluded', () => {
    expect(removeTemplateText(config(BLOCK), 'rubocop', false)).toBe(
      BLOCK.replace('    - rubocop   # style\n', ''),
    );
    expect(removeTemplateText(config(FLOW), 'rubocop', false)).toBe(FLOW.replace('[rubocop]', '[]'));
    const two = FLOW.replace('[rubocop]', '[rubocop, vscode]');
    expect(removeTemplateText(config(two), 'rubocop', false)).toBe(FLOW.replace('[rubocop]', '[vscode]'));
    expect(removeTemplateText(config(two), 'vscode', false)).toBe(FLOW);
    expect(removeTemplateText(config(FLOW), 'git', true)).toBe(
      FLOW.replace('[rubocop]', '[rubocop, ---git]'),
    );
    expect(removeTemplateText(config(BLOCK), 'gemfile', true)).toBe(BLOCK);
  });
});
