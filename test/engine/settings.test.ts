import { afterEach, describe, expect, it } from 'vitest';
import { compileSettingsSchema } from '../../src/engine/json-schema.js';
import type { DataMap } from '../../src/engine/model.js';
import { ReplaceValue } from '../../src/engine/model.js';
import { loadProject } from '../../src/engine/project.js';
import {
  cloneData,
  dataEquals,
  dataToValue,
  mergeData,
  mergeSettings,
  NotDataError,
  plainData,
  validateSettings,
  valueToData,
} from '../../src/engine/settings.js';
import { float, PRegexp } from '../../src/epp/runtime/values.js';
import { removeTempDirs, type Tree, tempTree } from '../helpers/fs.js';

describe('mergeSettings: hashes', () => {
  it('deep-merges, keeping the lower order and putting new keys last', () => {
    const lower: DataMap = { b: 1n, a: { x: 1n, y: 2n }, c: 'keep' };
    const { value, warnings } = mergeSettings(lower, { a: { z: 3n, x: 9n }, d: true, b: 2n });
    expect(value).toEqual({ b: 2n, a: { x: 9n, y: 2n, z: 3n }, c: 'keep', d: true });
    expect(Object.keys(value)).toEqual(['b', 'a', 'c', 'd']);
    expect(Object.keys(value.a as DataMap)).toEqual(['x', 'y', 'z']);
    expect(warnings).toEqual([]);
  });

  it('lets null mean "not set here": the lower value stays', () => {
    expect(mergeSettings({ a: 'default', b: { c: 1n } }, { a: null, b: { c: null } }).value).toEqual({
      a: 'default',
      b: { c: 1n },
    });
    expect(mergeSettings({}, { fresh: null }).value).toEqual({ fresh: null });
  });

  it('replaces a value of another type', () => {
    expect(mergeData({ a: 1n }, 'text').value).toBe('text');
    expect(mergeData('text', { a: 1n }).value).toEqual({ a: 1n });
    expect(mergeData(['a'], { a: 1n }).value).toEqual({ a: 1n });
    expect(mergeData(1n, 1.5).value).toBe(1.5);
  });

  it('never modifies its inputs', () => {
    const lower: DataMap = { list: ['a'], h: { k: 'v' } };
    const upper = { list: ['b'], h: { k2: 'w' } };
    const before = structuredClone(lower);
    const { value } = mergeSettings(lower, upper);
    (value.list as string[]).push('mutated');
    expect(lower).toEqual(before);
    expect(upper).toEqual({ list: ['b'], h: { k2: 'w' } });
  });

  it('handles a __proto__ key as plain data', () => {
    const upper = JSON.parse('{"__proto__": {"polluted": true}}') as DataMap;
    const { value } = mergeSettings({}, upper);
    expect(Object.keys(value)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('mergeSettings: arrays', () => {
  it('takes the union, lower first, without duplicates by deep equality', () => {
    const { value } = mergeData(['a', { k: 1n }, 'b'], ['b', { k: 1n }, 'c', 'c', { k: 2n }]);
    expect(value).toEqual(['a', { k: 1n }, 'b', 'c', { k: 2n }]);
  });

  it('keeps Integer and Float apart (1 and 1.0 are different items)', () => {
    expect(mergeData([1n], [1, 1n]).value).toEqual([1n, 1]);
  });

  it('removes items with ---item knockouts', () => {
    const { value, warnings } = mergeSettings(
      { paths: ['/spec/', '/Gemfile', '/.vscode/'] },
      { paths: ['---/spec/', '/extra', '---/.vscode/'] },
      '/pdkignore',
    );
    expect(value).toEqual({ paths: ['/Gemfile', '/extra'] });
    expect(warnings).toEqual([]);
  });

  it('drops a knockout that matches nothing, with a warning pointing at it', () => {
    const { value, warnings } = mergeSettings({ paths: ['a'] }, { paths: ['b', '---nothing'] }, '/tpl');
    expect(value).toEqual({ paths: ['a', 'b'] });
    expect(warnings).toEqual([
      {
        code: 'SETTINGS_KNOCKOUT_UNMATCHED',
        message: "knockout '---nothing' matches no inherited item; it is dropped",
        pointer: '/tpl/paths/1',
      },
    ]);
  });

  it('clears the inherited array with --- alone', () => {
    expect(mergeData(['a', 'b'], ['---', 'c']).value).toEqual(['c']);
    expect(mergeData(['a', 'b'], ['---']).value).toEqual([]);
  });

  it('treats an array replacing another type as a fresh array (knockouts match nothing)', () => {
    const { value, warnings } = mergeData('scalar', ['x', '---y'], '/t/k');
    expect(value).toEqual(['x']);
    expect(warnings.map((w) => w.pointer)).toEqual(['/t/k/1']);
  });
});

describe('!replace', () => {
  it('replaces an inherited array whole, items taken literally', () => {
    const { value, warnings } = mergeSettings(
      { gems: ['a', 'b'], other: 1n },
      { gems: new ReplaceValue(['b', '---a', 'b']) },
    );
    expect(value).toEqual({ gems: ['b', '---a', 'b'], other: 1n });
    expect(warnings).toEqual([]);
  });

  it('replaces an inherited hash whole', () => {
    const { value } = mergeSettings({ h: { a: 1n, b: 2n } }, { h: new ReplaceValue({ c: 3n }) });
    expect(value).toEqual({ h: { c: 3n } });
  });

  it('works nested inside a merged hash', () => {
    const { value } = mergeSettings(
      { h: { list: ['a'], keep: true } },
      { h: { list: new ReplaceValue(['z']) } },
    );
    expect(value).toEqual({ h: { list: ['z'], keep: true } });
  });
});

describe('helpers', () => {
  it('dataEquals compares deeply and by type', () => {
    expect(dataEquals({ a: [1n, 'x'] }, { a: [1n, 'x'] })).toBe(true);
    expect(dataEquals({ a: 1n }, { a: 1n, b: null })).toBe(false);
    expect(dataEquals({ a: 1n, b: 2n }, { b: 2n, a: 1n })).toBe(true);
    expect(dataEquals(1n, 1)).toBe(false);
    expect(dataEquals([1n], { 0: 1n })).toBe(false);
  });

  it('plainData unwraps ReplaceValue anywhere', () => {
    expect(plainData({ a: new ReplaceValue(['x']), b: [new ReplaceValue({ c: 1n })] })).toEqual({
      a: ['x'],
      b: [{ c: 1n }],
    });
  });

  it('cloneData copies deeply', () => {
    const src = { a: [{ b: 'c' }] };
    const copy = cloneData(src) as typeof src;
    expect(copy).toEqual(src);
    expect(copy.a[0]).not.toBe(src.a[0]);
  });
});

describe('settings data <-> Puppet values', () => {
  it('makes data Integers (bigint) Integers (numbers, bigint only beyond 2^53) and data Floats Floats', () => {
    const value = dataToValue({
      i: 1n,
      f: 1,
      big: 2n ** 60n,
      neg: -0,
      list: [3n, 2.5, null],
      s: 'x',
      b: true,
    });
    expect(value).toEqual(
      new Map<string, unknown>([
        ['i', 1],
        ['f', float(1)],
        ['big', 2n ** 60n],
        ['neg', float(-0)],
        ['list', [3, float(2.5), undefined]],
        ['s', 'x'],
        ['b', true],
      ]),
    );
    const map = value as Map<string, unknown>;
    expect(map.get('f')).toBe(float(1));
    expect(map.get('neg')).toBe(float(-0));
  });

  it('turns values back into the same data, Integer and Float kept apart', () => {
    const data: DataMap = { i: 1n, f: 1, big: -(2n ** 60n), nested: { z: 0n, h: 0.5 }, list: [null, 'a'] };
    expect(valueToData(dataToValue(data))).toEqual(data);
    expect(
      valueToData(
        new Map<string, unknown>([
          ['n', 7],
          ['f', float(7)],
        ]) as never,
      ),
    ).toEqual({ n: 7n, f: 7 });
  });

  it('refuses what is no data', () => {
    expect(() => valueToData(new Map([['r', new PRegexp('x')]]))).toThrow(NotDataError);
    expect(() => valueToData(new Map([[1, 'one']]))).toThrow(NotDataError);
  });
});

describe('validateSettings', () => {
  afterEach(() => removeTempDirs());

  /** Loads a one-template project and validates that template's merged settings. */
  async function check(json: Record<string, unknown>, section: string, schema?: Record<string, unknown>) {
    const tree: Tree = { 'tpl/template.json': JSON.stringify({ name: 'tpl', ...json }, null, 2) };
    if (schema) tree['tpl/template_schema.json'] = JSON.stringify(schema, null, 2);
    const repo = tempTree(tree, 'pantograph-repo-');
    const root = tempTree({
      '.sync.yml': `pdk_template:\n  version: 2\n  template_sources:\n    - type: filesystem\n      location: ${repo}\n  templates: [tpl]\n${section}`,
    });
    const project = await loadProject(root);
    expect(project.problems).toEqual([]);
    const t = project.applied[0]!;
    const merged = mergeSettings(t.manifest.default_settings, project.config.settings.tpl ?? {});
    const problems = validateSettings(t, merged.value, {
      config: project.config,
      sharedSchema: () => undefined,
    });
    return { problems, sync: project.config.file, manifest: t.manifestFile, settings: merged.value };
  }

  const SCHEMA = {
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    properties: {
      gems: { type: 'array', items: { type: 'string' } },
      port: { type: 'integer', minimum: 1024 },
      name: { type: 'string' },
    },
  };

  it('reports every error at once, each at its .sync.yml position', async () => {
    const { problems, sync } = await check(
      { default_settings: { gems: ['a'], port: 8080, name: 'x' } },
      'tpl:\n  gems: [b, 3]\n  port: 80\n  nmae: typo\n',
      SCHEMA,
    );
    expect(problems).toEqual([
      {
        severity: 'error',
        code: 'SETTINGS_INVALID',
        message: "tpl: setting 'gems.2' must be a string",
        file: sync,
        line: 8,
        column: 13,
      },
      {
        severity: 'error',
        code: 'SETTINGS_INVALID',
        message: "tpl: setting 'port' must be >= 1024",
        file: sync,
        line: 9,
        column: 9,
      },
      {
        severity: 'error',
        code: 'SETTINGS_UNKNOWN_KEY',
        message: "unknown setting 'nmae' for template 'tpl'",
        file: sync,
        line: 10,
        column: 3,
        hint: "did you mean 'name'?",
      },
    ]);
  });

  it("words a rule in the schema's own message and hint (x-message, x-hint); a near miss gets the value meant instead", async () => {
    const schema = {
      ...SCHEMA,
      properties: {
        ...SCHEMA.properties,
        mode: { enum: ['fast', 'safe'], 'x-message': 'is no mode of tpl', 'x-hint': 'write fast or safe' },
      },
    };
    const { problems, sync } = await check(
      { default_settings: { mode: 'safe' } },
      'tpl:\n  mode: slow\n',
      schema,
    );
    expect(problems).toEqual([
      {
        severity: 'error',
        code: 'SETTINGS_INVALID',
        message: "tpl: setting 'mode' is no mode of tpl",
        file: sync,
        line: 8,
        column: 9,
        hint: 'write fast or safe',
      },
    ]);
    const typo = await check({ default_settings: { mode: 'safe' } }, 'tpl:\n  mode: sfae\n', schema);
    expect(typo.problems[0]?.hint).toBe("did you mean 'safe'?");
  });

  it('lets a schema allow unknown keys with additionalProperties', async () => {
    const { problems } = await check({ default_settings: {} }, 'tpl:\n  free: 1\n', {
      ...SCHEMA,
      additionalProperties: true,
    });
    expect(problems).toEqual([]);
  });

  it('treats undef (~) as absent: the default stays and nothing is reported', async () => {
    const { problems, settings } = await check(
      { default_settings: { port: 8080 } },
      'tpl:\n  port: ~\n',
      SCHEMA,
    );
    expect(settings).toEqual({ port: 8080n });
    expect(problems).toEqual([]);
  });

  it('points at template.json when the bad value is a default', async () => {
    const { problems, manifest } = await check({ default_settings: { port: 'eighty' } }, '', SCHEMA);
    expect(problems).toEqual([
      {
        severity: 'error',
        code: 'SETTINGS_INVALID',
        message: "tpl: setting 'port' must be a whole number",
        file: manifest,
        line: 4,
        column: 13,
      },
    ]);
  });

  it("says a schema's counts and limits in words, not ajv's ('must NOT have fewer than 1 items')", async () => {
    const { problems } = await check(
      { default_settings: {} },
      'tpl:\n  list: []\n  one: [a, b]\n  name: ""\n  code: abcd\n  keys: {}\n  step: 7\n',
      {
        $schema: 'http://json-schema.org/draft-07/schema#',
        type: 'object',
        properties: {
          list: { type: 'array', minItems: 1 },
          one: { type: 'array', maxItems: 1 },
          name: { type: 'string', minLength: 1 },
          code: { type: 'string', maxLength: 3 },
          keys: { type: 'object', minProperties: 2 },
          step: { type: 'integer', multipleOf: 5 },
        },
      },
    );
    expect(problems.map((p) => [p.message, p.line])).toEqual([
      ["tpl: setting 'list' must have at least 1 item", 8],
      ["tpl: setting 'one' must have at most 1 item", 9],
      ["tpl: setting 'name' must be at least 1 character long", 10],
      ["tpl: setting 'code' must be at most 3 characters long", 11],
      ["tpl: setting 'keys' must have at least 2 keys", 12],
      ["tpl: setting 'step' must be a multiple of 5", 13],
    ]);
    // Lists in settings merge without repeats, so a repeat is seen where a schema checks other data
    // (a fleet file, template.json): counted from 1, as a reader counts.
    const unique = compileSettingsSchema({ type: 'array', uniqueItems: true }, 'list.json');
    expect(unique.validate(['a', 'b', 'a'])).toMatchObject([
      { pointer: '', message: 'has a duplicate: items 1 and 3 are the same' },
    ]);
  });

  it('infers a schema from default_settings when there is none, rejecting unknown keys', async () => {
    const { problems, sync } = await check(
      { default_settings: { count: 1, ratio: 0.5, label: 'x', flags: [], opts: {}, anything: null } },
      'tpl:\n  count: 1.5\n  ratio: 2\n  label: [x]\n  opts: {a: 1}\n  anything: [1]\n  cuont: 3\n',
    );
    expect(problems.map((p) => [p.code, p.message, p.line, p.column, p.hint, p.file === sync])).toEqual([
      ['SETTINGS_INVALID', "tpl: setting 'count' must be a whole number", 8, 10, undefined, true],
      ['SETTINGS_INVALID', "tpl: setting 'label' must be a string", 10, 10, undefined, true],
      [
        'SETTINGS_UNKNOWN_KEY',
        "unknown setting 'cuont' for template 'tpl'",
        13,
        3,
        "did you mean 'count'?",
        true,
      ],
    ]);
  });
});
