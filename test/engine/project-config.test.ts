import { afterAll, describe, expect, it } from 'vitest';
import { EngineError } from '../../src/engine/errors.js';
import { ReplaceValue } from '../../src/engine/model.js';
import { loadSyncConfig, parseSyncConfig } from '../../src/engine/project-config.js';
import { removeTempDirs, snapshotDir, tempTree } from '../helpers/fs.js';

afterAll(removeTempDirs);

const TEMPLATE_RULE = 'must be a template name in snake_case, or ---name to exclude an always_apply template';

const parse = (text: string) => parseSyncConfig(text, '/p/.sync.yml', '/p');

/** The EngineError `fn` throws. */
function thrown(fn: () => unknown): EngineError {
  try {
    fn();
  } catch (e) {
    if (e instanceof EngineError) return e;
    throw e;
  }
  throw new Error('expected an EngineError');
}

const FULL = `# project settings
pdk_template:
  version: 2
  template_sources:
    - type: git
      location: https://example.com/t.git
      ref: main
      trusted: true
    - type: filesystem
      location: ../templates
    - default
  templates: [github_actions, rubocop, ---litmus]
  shared_settings: { use_litmus: false }
  unmanaged: [Gemfile, ./spec/*.rb]
  delete: [.travis.yml]
  purge: true
  post: [{ "*.rb": "rubocop -a {}" }, { "*.md": "mdl", "*.js": "eslint --fix {}" }]
gemfile:
  optional_gems: !replace
    - rake
  required: ~
rubocop:
`;

describe('parseSyncConfig: a valid file', () => {
  const c = parse(FULL);

  it('reads pdk_template', () => {
    expect(c.problems).toEqual([]);
    expect(c.version).toBe(2);
    expect(c.sources).toEqual([
      {
        type: 'git',
        location: 'https://example.com/t.git',
        ref: 'main',
        trusted: true,
        position: { file: '/p/.sync.yml', line: 5, column: 7 },
      },
      {
        type: 'filesystem',
        location: '../templates',
        position: { file: '/p/.sync.yml', line: 9, column: 7 },
      },
      { type: 'default', location: 'default', position: { file: '/p/.sync.yml', line: 11, column: 7 } },
    ]);
    expect(c.templates.map((t) => [t.name, t.pointer, t.position.line, t.position.column])).toEqual([
      ['github_actions', '/pdk_template/templates/0', 12, 15],
      ['rubocop', '/pdk_template/templates/1', 12, 31],
    ]);
    expect(c.excluded.map((t) => t.name)).toEqual(['litmus']);
    expect(c.sharedSettings).toEqual({ use_litmus: false });
    expect(c.unmanaged).toEqual(['Gemfile', 'spec/*.rb']);
    expect(c.delete).toEqual(['.travis.yml']);
    expect(c.purge).toBe(true);
    expect(c.post).toEqual([
      { glob: '*.rb', command: 'rubocop -a {}' },
      { glob: '*.md', command: 'mdl' },
      { glob: '*.js', command: 'eslint --fix {}' },
    ]);
  });

  it('reads template sections: !replace wrapped, ~ as null, an empty section as {}', () => {
    expect(c.settings).toEqual({
      gemfile: { optional_gems: new ReplaceValue(['rake']), required: null },
      rubocop: {},
    });
    expect(Object.keys(c.settings)).toEqual(['gemfile', 'rubocop']);
  });

  it('finds the position of any value, falling back to the nearest ancestor', () => {
    expect(c.positionOf('/gemfile/optional_gems/0')).toEqual({ file: '/p/.sync.yml', line: 20, column: 7 });
    expect(c.positionOf('/gemfile/required')).toEqual({ file: '/p/.sync.yml', line: 21, column: 13 });
    expect(c.positionOf('/gemfile/missing/3')).toEqual({ file: '/p/.sync.yml', line: 19, column: 3 });
    expect(c.positions.keyPositionOf('/gemfile/required')).toEqual({
      file: '/p/.sync.yml',
      line: 21,
      column: 3,
    });
  });

  it('keeps the YAML document for rewriting with comments', () => {
    expect(c.document.toString()).toContain('# project settings');
    expect(c.text).toBe(FULL);
  });
});

describe('parseSyncConfig: defaults', () => {
  it('applies the default source and empty lists', () => {
    const c = parse('pdk_template:\n  version: 2\n');
    expect(c.sources).toEqual([{ type: 'default', location: 'default' }]);
    expect(c.templates).toEqual([]);
    expect(c.purge).toBe(false);
    expect(c.settings).toEqual({});
    expect(c.problems).toEqual([]);
  });
});

describe('parseSyncConfig: terminating errors', () => {
  it('recognises a V1 file and points at convert', () => {
    const e = thrown(() => parse('Gemfile:\n  optional: {}\n'));
    expect(e.code).toBe('SYNC_V1');
    expect(e.hint).toContain('pantograph convert');
    expect(e.position).toEqual({ file: '/p/.sync.yml', line: 1, column: 1 });
  });

  it('treats an empty file as V1', () => {
    expect(thrown(() => parse('')).code).toBe('SYNC_V1');
  });

  it('refuses a file that is not a mapping', () => {
    const e = thrown(() => parse('- a\n- b\n'));
    expect([e.code, e.where]).toEqual(['SYNC_NOT_MAPPING', '/p/.sync.yml:1:1']);
  });

  it('reports YAML syntax errors with positions', () => {
    const e = thrown(() => parse('pdk_template:\n  version: 2\n  templates: [a, b\n'));
    expect(e.code).toBe('SYNC_YAML');
    expect(e.position?.line).toBe(4);
    expect(e.problems.length).toBeGreaterThan(0);
    expect(e.problems.every((p) => p.code === 'SYNC_YAML' && p.line !== undefined)).toBe(true);
  });

  it('reports duplicate keys', () => {
    const e = thrown(() => parse('pdk_template:\n  version: 2\n  version: 2\n'));
    expect([e.code, e.where]).toEqual(['SYNC_YAML', '/p/.sync.yml:3:3']);
  });

  it('requires a version', () => {
    const e = thrown(() => parse('pdk_template:\n  templates: [a]\n'));
    expect([e.code, e.where]).toEqual(['SYNC_VERSION', '/p/.sync.yml:2:3']);
    expect(e.message).toContain('required');
    expect(thrown(() => parse('pdk_template:\n')).code).toBe('SYNC_VERSION');
    const e2 = thrown(() => parse('pdk_template: [2]\n'));
    expect([e2.code, e2.where]).toEqual(['SYNC_VERSION', '/p/.sync.yml:1:15']);
  });

  it('requires an integer version', () => {
    for (const v of ["'2'", '2.0', '[2]']) {
      const e = thrown(() => parse(`pdk_template:\n  version: ${v}\n`));
      expect([e.code, e.where]).toEqual(['SYNC_VERSION', '/p/.sync.yml:2:12']);
      expect(e.message).toContain('must be an integer');
    }
  });

  it('names the supported versions', () => {
    const e = thrown(() => parse('pdk_template:\n  version: 3\n'));
    expect([e.code, e.where]).toEqual(['SYNC_VERSION', '/p/.sync.yml:2:12']);
    expect(e.message).toBe('`pdk_template.version` 3 is not supported; this Pantograph supports version 2');
    expect(e.hint).toBe(
      'a newer Pantograph wrote this file: upgrade Pantograph, or write `version: 2` if it was a typo',
    );
    expect(thrown(() => parse('pdk_template:\n  version: 1\n')).hint).toBe('write `version: 2`');
  });
});

describe('parseSyncConfig: collected problems', () => {
  it('reports an unknown pdk_template key with a did-you-mean, at the key', () => {
    const c = parse('pdk_template:\n  version: 2\n  tempaltes: [a]\n  purg: true\n');
    expect(c.problems).toEqual([
      {
        severity: 'error',
        code: 'SYNC_UNKNOWN_KEY',
        message: "unknown key 'tempaltes' in pdk_template",
        file: '/p/.sync.yml',
        line: 3,
        column: 3,
        hint: "did you mean 'templates'?",
      },
      {
        severity: 'error',
        code: 'SYNC_UNKNOWN_KEY',
        message: "unknown key 'purg' in pdk_template",
        file: '/p/.sync.yml',
        line: 4,
        column: 3,
        hint: "did you mean 'purge'?",
      },
    ]);
  });

  it('collects every type error at once, with positions', () => {
    const c = parse(
      [
        'pdk_template:',
        '  version: 2',
        '  purge: "yes please"',
        '  templates: [Gemfile, 3]',
        '  template_sources:',
        '    - type: git',
        '    - type: svn',
        '      location: x',
        '    - type: filesystem',
        '      location: /t',
        '      refs: main',
        '    - defualt',
        'gemfile: 3',
      ].join('\n'),
    );
    const got = c.problems.map((p) => [p.code, p.line, p.column, p.message, p.hint]);
    expect(got).toEqual([
      ['SYNC_INVALID', 3, 10, 'pdk_template.purge must be true or false', undefined],
      ['SYNC_INVALID', 4, 15, `pdk_template.templates[0] ${TEMPLATE_RULE}`, undefined],
      ['SYNC_INVALID', 4, 24, `pdk_template.templates[1] ${TEMPLATE_RULE}`, undefined],
      [
        'SYNC_INVALID',
        6,
        7,
        "pdk_template.template_sources[0] has no 'location', which is required",
        undefined,
      ],
      [
        'SYNC_INVALID',
        7,
        13,
        'pdk_template.template_sources[1].type must be one of "filesystem", "git", "default"',
        undefined,
      ],
      [
        'SYNC_UNKNOWN_KEY',
        11,
        7,
        "unknown key 'refs' in pdk_template.template_sources[2]",
        "did you mean 'ref'?",
      ],
      [
        'SYNC_INVALID',
        12,
        7,
        'pdk_template.template_sources[3] must be "default"',
        "did you mean 'default'?",
      ],
      ['SYNC_INVALID', 13, 10, 'gemfile must be a mapping (key: value) or empty (null)', undefined],
    ]);
    // What is valid is still read.
    expect(c.sources.map((s) => s.type)).toEqual(['filesystem']);
    expect(c.settings).toEqual({});
  });

  it('refuses ref on a filesystem source', () => {
    const c = parse(
      'pdk_template:\n  version: 2\n  template_sources:\n    - {type: filesystem, location: t, ref: v1}\n',
    );
    expect(c.problems).toMatchObject([
      { code: 'SYNC_INVALID', line: 4, column: 44, message: '`ref` applies to git sources only' },
    ]);
  });

  it('refuses unmanaged and delete paths that leave the project', () => {
    const c = parse(
      'pdk_template:\n  version: 2\n  unmanaged: [ok, ../up]\n  delete: [/etc/passwd, a/../../b]\n',
    );
    expect(c.problems.map((p) => [p.code, p.line, p.column])).toEqual([
      ['SYNC_INVALID', 3, 19],
      ['SYNC_INVALID', 4, 12],
      ['SYNC_INVALID', 4, 25],
    ]);
    expect(c.unmanaged).toEqual(['ok']);
    expect(c.delete).toEqual([]);
  });

  it('refuses a post command with {} inside a larger word, at the command, and keeps whole-word {}', () => {
    const c = parse(
      'pdk_template:\n  version: 2\n  post:\n' +
        '    - { "*.rb": "sh -c \'echo formatting {}\'" }\n' +
        '    - { "*.pp": "fmt --file={}", "*.md": "mdl {}" }\n' +
        '    - { "*.sh": "sh -c \'shfmt -w \\"$1\\"\' sh {}" }\n',
    );
    expect(c.problems).toEqual([
      {
        severity: 'error',
        code: 'SYNC_POST_COMMAND',
        message:
          'post command "sh -c \'echo formatting {}\'" has {} inside the argument "echo formatting {}": the file\'s name would become part of it (shell code, for `sh -c`), and a template chooses its files\' names',
        file: '/p/.sync.yml',
        line: 4,
        column: 17,
        hint: 'pass {} as an argument of its own: `fmt --file {}`, or for a shell `sh -c \'fmt "$1" || true\' sh {}` (the name is then "$1", never code)',
      },
      expect.objectContaining({ code: 'SYNC_POST_COMMAND', line: 5, column: 17 }),
    ]);
    expect(c.problems[1]!.message).toContain('has {} inside the argument "--file={}"');
  });

  it('warns on a template named twice', () => {
    const c = parse('pdk_template:\n  version: 2\n  templates: [a, b, a]\n');
    expect(c.problems).toMatchObject([
      { severity: 'warning', code: 'SYNC_DUPLICATE_TEMPLATE', line: 3, column: 21 },
    ]);
    expect(c.templates.map((t) => t.name)).toEqual(['a', 'b']);
  });

  it('warns on ambiguous YAML 1.1 scalars and reads them as Psych does', () => {
    const c = parse(
      'pdk_template:\n  version: 2\n  purge: yes\nrubocop:\n  enabled: on\n  mode: 0644\n  name: n\n',
    );
    expect(c.purge).toBe(true);
    expect(c.settings.rubocop).toEqual({ enabled: true, mode: 420n, name: 'n' });
    expect(c.problems.map((p) => [p.severity, p.code, p.line, p.column])).toEqual([
      ['warning', 'SYNC_AMBIGUOUS_SCALAR', 3, 10],
      ['warning', 'SYNC_AMBIGUOUS_SCALAR', 5, 12],
      ['warning', 'SYNC_AMBIGUOUS_SCALAR', 6, 9],
    ]);
  });

  it('refuses !replace on a whole section', () => {
    const c = parse('pdk_template:\n  version: 2\ngemfile: !replace\n  a: 1\n');
    expect(c.problems).toMatchObject([{ code: 'SYNC_SECTION', line: 4, column: 3 }]);
  });
});

describe('loadSyncConfig', () => {
  it('says when .sync.yml cannot be read', () => {
    const root = tempTree({ '.sync.yml/x': 'a directory, not a file' });
    const e = thrown(() => loadSyncConfig(root));
    expect(e.code).toBe('SYNC_READ');
    expect(e.message).toContain(`${root}/.sync.yml`);
  });

  it('reads <root>/.sync.yml and writes nothing', () => {
    const root = tempTree({ '.sync.yml': 'pdk_template:\n  version: 2\n  templates: [a]\n', Gemfile: 'x' });
    const before = snapshotDir(root);
    const c = loadSyncConfig(root);
    expect(c.root).toBe(root);
    expect(c.file).toBe(`${root}/.sync.yml`);
    expect(c.templates.map((t) => t.position)).toEqual([{ file: `${root}/.sync.yml`, line: 3, column: 15 }]);
    expect(snapshotDir(root)).toEqual(before);
  });

  it('says how to create a missing .sync.yml', () => {
    const root = tempTree({ 'README.md': 'x' });
    const e = thrown(() => loadSyncConfig(root));
    expect(e.code).toBe('SYNC_NOT_FOUND');
    expect(e.hint).toContain('pantograph init');
  });

  it('leaves a V1 project untouched', () => {
    const root = tempTree({ '.sync.yml': '---\nGemfile:\n  required: {}\n' });
    const before = snapshotDir(root);
    expect(thrown(() => loadSyncConfig(root)).code).toBe('SYNC_V1');
    expect(snapshotDir(root)).toEqual(before);
  });
});
