import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EngineError } from '../../src/engine/errors.js';
import { compileSettingsSchema } from '../../src/engine/json-schema.js';
import type { ResolvedSource } from '../../src/engine/model.js';
import { loadTemplate } from '../../src/engine/repository.js';
import { findTemplate } from '../../src/engine/sources/index.js';
import { engineVersion } from '../../src/version.js';
import { removeTempDirs, snapshotDir, type Tree, tempTree } from '../helpers/fs.js';

afterAll(removeTempDirs);

function sourceOf(dir: string): ResolvedSource {
  return { spec: { type: 'filesystem', location: dir }, index: 0, dir, trusted: true };
}

/** Loads template `name` from a repository made of `tree`. */
function load(tree: Tree, name: string) {
  const repo = tempTree(tree);
  const location = findTemplate([sourceOf(repo)], name) ?? {
    name,
    dir: join(repo, name),
    source: sourceOf(repo),
  };
  return { repo, ...loadTemplate(location) };
}

const BINARY = new Uint8Array([0, 1, 2, 255, 254, 0, 10]);

const FULL: Tree = {
  'full/template.json': JSON.stringify(
    {
      name: 'Full example',
      description: 'Everything at once',
      tags: ['ruby', 'ci'],
      always_apply: true,
      default_settings: { count: 3, ratio: 1.0, gems: ['rake'], nested: { a: null } },
      setting_subscriptions: ['use_litmus'],
      shared_settings: {
        ruby_versions: { description: 'Rubies', schema: { type: 'array' }, value: ['3.2'] },
      },
      v1_files: ['Gemfile'],
      v1_settings: {
        old: null,
        renamed: 'gemfile.gems',
        stripped: { to: 'puppet_lint.disabled_checks', strip_suffix: '-check' },
        checks: { to: 'puppet_lint.disabled_checks', boolean_entries: { relative: 'puppet_lint.relative' } },
      },
      v1_reads: { Gemfile: ['required', 'optional'], '.rspec': [] },
      v1_defaults: { Gemfile: ['required'] },
      v1_default: 'managed',
      v1_convert_settings: { style: 'pdk' },
      version: '1.2.3',
      requires: '>= 0.1.0',
      delimiters: ['[%', '%]'],
    },
    null,
    2,
  ).replace('"ratio": 1,', '"ratio": 1.0,'),
  'full/template_schema.json': JSON.stringify({
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    properties: { count: { type: 'integer' } },
  }),
  'full/files/Gemfile.epp': '<%= $count %>',
  'full/files/.rubocop.yml': 'x: 1\n',
  'full/files/bin/run.sh': { content: '#!/bin/sh\n', mode: 0o755 },
  'full/files/logo.png': BINARY,
  'full/files/.github/workflows/ci.yml.epp': 'ci',
  'full/files/linked': { symlink: '../../shared/common.txt' },
  'full/files_init/README.md.epp': '# <%= $project["name"] %>',
  'full/partials/header.epp': 'h',
  'full/partials/sub/footer.epp': 'f',
  'full/hooks/after_default_settings.pp': '$state',
  'full/hooks/before_file_render.mjs': 'export default (s) => s;',
  'full/hooks/lib/helper.mjs': 'export const x = 1;',
  'full/README.md': 'docs',
  'full/tests/case1/.sync.yml': 'x',
  'shared/common.txt': 'common',
  'moduleroot/Gemfile.erb': 'v1',
  'config_defaults.yml': '---\n',
};

describe('loadTemplate: a complete template', () => {
  const { repo, template, problems } = load(FULL, 'full');

  it('loads without problems', () => {
    expect(problems).toEqual([]);
    expect(template?.name).toBe('full');
    expect(template?.dir).toBe(join(repo, 'full'));
    expect(template?.sourceIndex).toBe(0);
  });

  it('reads template.json, keeping Integer and Float apart', () => {
    expect(template?.manifest).toEqual({
      name: 'Full example',
      description: 'Everything at once',
      type: 'module',
      tags: ['ruby', 'ci', 'full'],
      always_apply: true,
      default_settings: { count: 3n, ratio: 1, gems: ['rake'], nested: { a: null } },
      setting_subscriptions: ['use_litmus'],
      shared_settings: {
        ruby_versions: { description: 'Rubies', schema: { type: 'array' }, value: ['3.2'] },
      },
      v1_files: ['Gemfile'],
      v1_settings: {
        old: null,
        renamed: { to: 'gemfile.gems' },
        stripped: { to: 'puppet_lint.disabled_checks', stripSuffix: '-check' },
        checks: { to: 'puppet_lint.disabled_checks', booleanEntries: { relative: 'puppet_lint.relative' } },
      },
      v1_reads: { Gemfile: ['required', 'optional'], '.rspec': [] },
      v1_defaults: { Gemfile: ['required'] },
      v1_default: 'managed',
      v1_convert_settings: { style: 'pdk' },
      version: '1.2.3',
      requires: '>= 0.1.0',
      delimiters: ['[%', '%]'],
    });
    expect(template?.manifestPositions.positionOf('/default_settings/gems/0')).toEqual({
      file: join(repo, 'full', 'template.json'),
      line: 13,
      column: 7,
    });
  });

  it('loads the settings schema', () => {
    expect(template?.schema).toMatchObject({ properties: { count: { type: 'integer' } } });
    expect(template?.schemaFile).toBe(join(repo, 'full', 'template_schema.json'));
  });

  it('lists files and files_init with output paths, executable bits and dotfiles', () => {
    const dir = join(repo, 'full');
    expect(template?.files).toEqual([
      {
        source: 'files/.github/workflows/ci.yml.epp',
        absPath: join(dir, 'files/.github/workflows/ci.yml.epp'),
        output: '.github/workflows/ci.yml',
        kind: 'file',
        executable: false,
        isTemplate: true,
      },
      {
        source: 'files/.rubocop.yml',
        absPath: join(dir, 'files/.rubocop.yml'),
        output: '.rubocop.yml',
        kind: 'file',
        executable: false,
        isTemplate: false,
      },
      {
        source: 'files/Gemfile.epp',
        absPath: join(dir, 'files/Gemfile.epp'),
        output: 'Gemfile',
        kind: 'file',
        executable: false,
        isTemplate: true,
      },
      {
        source: 'files/bin/run.sh',
        absPath: join(dir, 'files/bin/run.sh'),
        output: 'bin/run.sh',
        kind: 'file',
        executable: true,
        isTemplate: false,
      },
      {
        source: 'files/linked',
        absPath: join(dir, 'files/linked'),
        output: 'linked',
        kind: 'file',
        executable: false,
        isTemplate: false,
      },
      {
        source: 'files/logo.png',
        absPath: join(dir, 'files/logo.png'),
        output: 'logo.png',
        kind: 'file',
        executable: false,
        isTemplate: false,
      },
      {
        source: 'files_init/README.md.epp',
        absPath: join(dir, 'files_init/README.md.epp'),
        output: 'README.md',
        kind: 'init',
        executable: false,
        isTemplate: true,
      },
    ]);
  });

  it('finds partials and hooks', () => {
    expect(template?.partials).toEqual(['partials/header.epp', 'partials/sub/footer.epp']);
    expect(template?.hooks).toEqual({
      after_default_settings: { path: join(repo, 'full/hooks/after_default_settings.pp'), kind: 'pp' },
      before_file_render: { path: join(repo, 'full/hooks/before_file_render.mjs'), kind: 'mjs' },
    });
  });
});

describe('loadTemplate: defaults', () => {
  it('fills in what template.json leaves out', () => {
    const { template, problems } = load({ 'mini/template.json': '{"name": "mini"}' }, 'mini');
    expect(problems).toEqual([]);
    expect(template?.manifest).toEqual({
      name: 'mini',
      description: 'mini',
      type: 'module',
      tags: ['mini'],
      always_apply: false,
      default_settings: {},
      setting_subscriptions: [],
      shared_settings: {},
      v1_files: [],
      v1_settings: {},
      v1_reads: {},
      v1_defaults: {},
      v1_default: undefined,
      v1_convert_settings: {},
      version: undefined,
      requires: undefined,
      delimiters: undefined,
    });
    expect([template?.files, template?.partials, template?.hooks, template?.schema]).toEqual([
      [],
      [],
      {},
      undefined,
    ]);
  });
});

describe('loadTemplate: bad input', () => {
  it('reports malformed JSON with its position, and writes nothing', () => {
    const tree = { 'bad/template.json': '{\n  "name": "bad",\n  "tags": [1,]\n}\n' };
    const repo = tempTree(tree);
    const before = snapshotDir(repo);
    const { template, problems } = loadTemplate({
      name: 'bad',
      dir: join(repo, 'bad'),
      source: sourceOf(repo),
    });
    expect(template).toBeUndefined();
    expect(problems).toEqual([
      {
        severity: 'error',
        code: 'TEMPLATE_JSON',
        message: "invalid JSON: unexpected ']'",
        file: join(repo, 'bad/template.json'),
        line: 3,
        column: 14,
      },
    ]);
    expect(snapshotDir(repo)).toEqual(before);
  });

  it('checks `requires` against the Pantograph version, at its position', () => {
    const manifest = (requires: string) => `{\n  "name": "r",\n  "requires": "${requires}"\n}\n`;
    expect(load({ 'r/template.json': manifest('>=0.1.0 <1.0.0') }, 'r').problems).toEqual([]);
    const { repo, problems } = load({ 'r/template.json': manifest('>=99.0.0') }, 'r');
    expect(problems).toEqual([
      {
        severity: 'error',
        code: 'TEMPLATE_REQUIRES',
        message: `template 'r' requires Pantograph >=99.0.0; this is Pantograph ${engineVersion()}`,
        file: join(repo, 'r/template.json'),
        line: 3,
        column: 15,
        hint: 'upgrade Pantograph, or use a version of the template made for this one',
      },
    ]);
    expect(load({ 'r/template.json': manifest('>= banana') }, 'r').problems).toMatchObject([
      {
        code: 'TEMPLATE_INVALID',
        message: "template 'r': requires '>= banana' is not a version range",
        line: 3,
      },
    ]);
  });

  it('says when template.json cannot be read', () => {
    const repo = tempTree({ 'u/template.json/x': 'a directory' });
    const { template, problems } = loadTemplate({ name: 'u', dir: join(repo, 'u'), source: sourceOf(repo) });
    expect(template).toBeUndefined();
    expect(problems).toMatchObject([{ code: 'TEMPLATE_READ', file: join(repo, 'u/template.json'), line: 1 }]);
  });

  it('refuses JSON with comments', () => {
    const { problems } = load({ 'c/template.json': '{"name": "c"} # note' }, 'c');
    expect(problems).toMatchObject([
      {
        code: 'TEMPLATE_JSON',
        line: 1,
        column: 15,
        message: "invalid JSON: unexpected '#' after the JSON value",
      },
    ]);
  });

  it('checks template.json against the schema, all errors at once, with positions', () => {
    const json = [
      '{',
      '  "name": "t",',
      '  "defaults_settings": {},',
      '  "always_apply": "yes",',
      '  "delimiters": ["[%"],',
      '  "version": "1.0",',
      '  "shared_settings": {"x": {"valeu": 1}}',
      '}',
    ].join('\n');
    const { template, problems } = load({ 't/template.json': json }, 't');
    expect(problems.map((p) => [p.code, p.line, p.column, p.message, p.hint])).toEqual([
      [
        'TEMPLATE_INVALID',
        3,
        3,
        "unknown key 'defaults_settings' in template.json",
        "did you mean 'default_settings'?",
      ],
      ['TEMPLATE_INVALID', 4, 19, 'template.json/always_apply must be true or false', undefined],
      ['TEMPLATE_INVALID', 5, 17, 'template.json/delimiters must have at least 2 items', undefined],
      [
        'TEMPLATE_INVALID',
        6,
        14,
        'template.json/version must be a semantic version such as 1.2.3',
        undefined,
      ],
      [
        'TEMPLATE_INVALID',
        7,
        29,
        "unknown key 'valeu' in template.json/shared_settings/x",
        "did you mean 'value'?",
      ],
    ]);
    // A template whose always_apply is not a boolean is not loaded: its error must not be dropped as the
    // problem of a template that is not applied (issue 11).
    expect(template).toBeUndefined();
    // Otherwise what was valid is still read.
    const rest = load({ 't/template.json': json.replace('  "always_apply": "yes",\n', '') }, 't');
    expect(rest.problems).toHaveLength(4);
    expect(rest.template?.manifest.always_apply).toBe(false);
    expect(rest.template?.manifest.name).toBe('t');
  });

  it('requires a snake_case directory name', () => {
    const { problems } = load({ 'BadName/template.json': '{"name": "x"}' }, 'BadName');
    expect(problems).toMatchObject([{ code: 'TEMPLATE_NAME', line: 1, column: 1 }]);
  });

  it('loads settings schemas of every supported draft', () => {
    for (const uri of [
      'http://json-schema.org/draft-06/schema#',
      'http://json-schema.org/draft-07/schema#',
      'https://json-schema.org/draft/2019-09/schema',
      'https://json-schema.org/draft/2020-12/schema',
    ]) {
      const schema = { $schema: uri, type: 'object', properties: { n: { type: 'integer' } } };
      const { template, problems } = load(
        { 's/template.json': '{"name": "s"}', 's/template_schema.json': JSON.stringify(schema) },
        's',
      );
      expect(problems).toEqual([]);
      expect(template?.schema).toEqual(schema);
    }
  });

  it('refuses an unsupported draft and an invalid schema, with positions', () => {
    const old = load(
      {
        's/template.json': '{"name": "s"}',
        's/template_schema.json': '{\n  "$schema": "http://json-schema.org/draft-04/schema#"\n}',
      },
      's',
    );
    expect(old.problems).toMatchObject([{ code: 'TEMPLATE_SCHEMA', line: 2, column: 14 }]);
    expect(old.problems[0]?.hint).toContain('2020-12');
    const bad = load(
      {
        's/template.json': '{"name": "s"}',
        's/template_schema.json':
          '{\n  "type": "object",\n  "properties": {\n    "n": {"type": "strin"}\n  }\n}',
      },
      's',
    );
    expect(bad.problems.length).toBeGreaterThan(0);
    expect(bad.problems[0]).toMatchObject({ code: 'TEMPLATE_SCHEMA', line: 4 });
    expect(bad.template?.schema).toBeUndefined();
  });

  it('refuses symlinks out of the repository, and dangling ones', () => {
    const outside = tempTree({ 'secret.txt': 'secret' });
    const { problems, template } = load(
      {
        'l/template.json': '{"name": "l"}',
        'l/files/secret': { symlink: join(outside, 'secret.txt') },
        'l/files/dir': { symlink: outside },
        'l/files/dangling': { symlink: 'nowhere' },
        'l/files/ok': 'ok',
      },
      'l',
    );
    expect(problems.map((p) => [p.code, p.file?.split('/').slice(-2).join('/')])).toEqual([
      ['TEMPLATE_SYMLINK', 'files/dangling'],
      ['TEMPLATE_SYMLINK', 'files/dir'],
      ['TEMPLATE_SYMLINK', 'files/secret'],
    ]);
    expect(template?.files.map((f) => f.output)).toEqual(['ok']);
  });

  it('refuses a template directory linked from outside the repository', () => {
    const outside = tempTree({ 'x/template.json': '{"name": "x"}' });
    const repo = tempTree({
      x: { symlink: join(outside, 'x') },
      'inner/template.json': '{"name": "inner"}',
      y: { symlink: 'inner' },
    });
    const source = sourceOf(repo);
    const escaped = loadTemplate(findTemplate([source], 'x')!);
    expect(escaped.template).toBeUndefined();
    expect(escaped.problems).toMatchObject([{ code: 'TEMPLATE_SYMLINK', file: join(repo, 'x') }]);
    const linked = loadTemplate(findTemplate([source], 'y')!);
    expect(linked.problems).toEqual([]);
    expect(linked.template?.name).toBe('y');
  });

  it('refuses a template.json or schema linked from outside the repository', () => {
    const outside = tempTree({ 'template.json': '{"name": "x"}', 'schema.json': '{}' });
    const linkedManifest = load({ 'm/template.json': { symlink: join(outside, 'template.json') } }, 'm');
    expect(linkedManifest.template).toBeUndefined();
    expect(linkedManifest.problems).toMatchObject([{ code: 'TEMPLATE_SYMLINK' }]);
    const linkedSchema = load(
      {
        's/template.json': '{"name": "s"}',
        's/template_schema.json': { symlink: join(outside, 'schema.json') },
      },
      's',
    );
    expect(linkedSchema.problems).toMatchObject([
      { code: 'TEMPLATE_SYMLINK', file: expect.stringMatching(/template_schema\.json$/) },
    ]);
    expect(linkedSchema.template?.schema).toBeUndefined();
  });

  it('refuses reserved output paths and two files on one path', () => {
    const { problems } = load(
      {
        'r/template.json': '{"name": "r"}',
        'r/files/.sync.yml': 'x',
        'r/files/.pantograph.lock.epp': 'x',
        'r/files/.git/config': 'x',
        'r/files/sub/.epp': 'x',
        'r/files/Gemfile': 'x',
        'r/files/Gemfile.epp': 'x',
        'r/files_init/Gemfile': 'x',
      },
      'r',
    );
    expect(problems.map((p) => [p.code, p.message])).toEqual([
      [
        'TEMPLATE_RESERVED_PATH',
        "template 'r': files/.git/config would write .git/config, which Pantograph never writes",
      ],
      [
        'TEMPLATE_RESERVED_PATH',
        "template 'r': files/.pantograph.lock.epp would write .pantograph.lock, which Pantograph never writes",
      ],
      [
        'TEMPLATE_RESERVED_PATH',
        "template 'r': files/.sync.yml would write .sync.yml, which Pantograph never writes",
      ],
      ['TEMPLATE_FILE_CONFLICT', 'files/Gemfile and files/Gemfile.epp both produce Gemfile'],
      ['TEMPLATE_RESERVED_PATH', 'files/sub/.epp produces no file name'],
      ['TEMPLATE_FILE_CONFLICT', 'files/Gemfile and files_init/Gemfile both produce Gemfile'],
    ]);
  });

  it('refuses unknown and duplicate hooks, with a did-you-mean', () => {
    const { problems, template } = load(
      {
        'h/template.json': '{"name": "h"}',
        'h/hooks/after_default_setting.pp': '$state',
        'h/hooks/notes.txt': 'x',
        'h/hooks/after_file_resolution.pp': '$state',
        'h/hooks/after_file_resolution.mjs': 'export default (s) => s;',
      },
      'h',
    );
    expect(problems.map((p) => [p.code, p.file?.split('/').pop(), p.hint])).toEqual([
      ['TEMPLATE_UNKNOWN_HOOK', 'after_default_setting.pp', "did you mean 'after_default_settings'?"],
      ['TEMPLATE_DUPLICATE_HOOK', 'after_file_resolution.pp', 'keep one of them'],
      ['TEMPLATE_UNKNOWN_HOOK', 'notes.txt', undefined],
    ]);
    expect(template?.hooks.after_file_resolution?.kind).toBe('mjs');
  });
});

describe('compileSettingsSchema', () => {
  it('validates data with bigint integers and suggests names for unknown keys', () => {
    const schema = compileSettingsSchema(
      {
        type: 'object',
        additionalProperties: false,
        properties: { count: { type: 'integer' }, name: { type: 'string' } },
      },
      'x.json',
    );
    expect(schema.draft).toBe('draft-07');
    expect(schema.validate({ count: 3n, name: 'n' })).toEqual([]);
    expect(schema.validate({ count: 'x', nmae: 'n' })).toEqual([
      {
        pointer: '/nmae',
        message: "unknown key 'nmae'",
        keyword: 'additionalProperties',
        params: { additionalProperty: 'nmae' },
        suggestion: 'name',
      },
      { pointer: '/count', message: 'must be a whole number', keyword: 'type', params: { type: 'integer' } },
    ]);
  });

  it('compiles once per schema object', () => {
    const raw = { type: 'object' };
    expect(compileSettingsSchema(raw, 'x.json')).toBe(compileSettingsSchema(raw, 'x.json'));
  });

  it('throws a positioned EngineError for a non-object schema', () => {
    expect(() => compileSettingsSchema([1], 'x.json')).toThrow(EngineError);
  });
});

describe("a template schema's own mistakes, for its author", () => {
  it('a misspelt type is one error at it, with the type meant; in a list of types, at the item', () => {
    const before = tempTree({
      's/template.json': '{"name": "s"}',
      's/template_schema.json':
        '{\n  "type": "object",\n  "properties": {\n    "n": {"type": "strng"},\n    "m": {"type": ["string", "nul"]}\n  }\n}',
    });
    const snapshot = snapshotDir(before);
    const { problems, template } = loadTemplate(findTemplate([sourceOf(before)], 's')!);
    expect(problems.map((p) => [p.message, p.line, p.column, p.hint])).toEqual([
      [
        "invalid schema: unknown type 'strng'; did you mean 'string'?",
        4,
        19,
        "the JSON Schema types are 'string', 'number', 'integer', 'boolean', 'object', 'array', 'null'",
      ],
      [
        "invalid schema: unknown type 'nul'; did you mean 'null'?",
        5,
        30,
        "the JSON Schema types are 'string', 'number', 'integer', 'boolean', 'object', 'array', 'null'",
      ],
    ]);
    expect(
      problems.every((p) => p.code === 'TEMPLATE_SCHEMA' && p.file?.endsWith('s/template_schema.json')),
    ).toBe(true);
    expect(template?.schema).toBeUndefined();
    expect(snapshotDir(before)).toEqual(snapshot);
  });

  it('a $ref that does not resolve is reported at the $ref', () => {
    const { problems } = load(
      {
        's/template.json': '{"name": "s"}',
        's/template_schema.json':
          '{\n  "type": "object",\n  "properties": {\n    "n": {"type": "array", "items": {"$ref": "#/definitions/nope"}}\n  }\n}',
      },
      's',
    );
    expect(problems).toMatchObject([
      {
        code: 'TEMPLATE_SCHEMA',
        message: "invalid schema: $ref '#/definitions/nope' does not resolve (at /properties/n/items/$ref)",
        line: 4,
        column: 46,
      },
    ]);
    expect(problems[0]?.hint).toContain('#/definitions/name');
  });

  it('every mistake at once, each at its place, in the order of the file', () => {
    const { problems, template } = load(
      {
        's/template.json': '{"name": "s"}',
        's/template_schema.json': [
          '{',
          '  "type": "object",',
          '  "properties": {',
          '    "n": {"type": "string", "minLenght": 2},',
          '    "r": {"$ref": "#/definitions/nope"},',
          '    "t": {"type": "strng"},',
          '    "u": {"items": {"$ref": "#/definitions/nope"}}',
          '  }',
          '}',
        ].join('\n'),
      },
      's',
    );
    expect(problems.map((p) => [p.code, p.line, p.column, p.message])).toEqual([
      ['TEMPLATE_SCHEMA', 4, 42, "unknown keyword 'minLenght' in the schema at /properties/n/minLenght"],
      [
        'TEMPLATE_SCHEMA',
        5,
        19,
        "invalid schema: $ref '#/definitions/nope' does not resolve (at /properties/r/$ref)",
      ],
      ['TEMPLATE_SCHEMA', 6, 19, "invalid schema: unknown type 'strng'; did you mean 'string'?"],
      [
        'TEMPLATE_SCHEMA',
        7,
        29,
        "invalid schema: $ref '#/definitions/nope' does not resolve (at /properties/u/items/$ref)",
      ],
    ]);
    expect(template?.schema).toBeUndefined();
  });
});
