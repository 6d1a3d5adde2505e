import { afterEach, describe, expect, it } from 'vitest';
import type { LoadedTemplate } from '../../src/engine/model.js';
import { loadProject, type Project } from '../../src/engine/project.js';
import {
  combineTwo,
  declaredPublication,
  dependencyOrder,
  SharedSettingsBoard,
} from '../../src/engine/shared-settings.js';
import { removeTempDirs, type Tree, tempTree } from '../helpers/fs.js';

afterEach(() => removeTempDirs());

/** Loads a project applying `templates` (name -> template.json fields) in the given order. */
async function projectOf(templates: Record<string, Record<string, unknown>>, extra = ''): Promise<Project> {
  const tree: Tree = {};
  for (const [name, json] of Object.entries(templates)) {
    tree[`${name}/template.json`] = JSON.stringify({ name, ...json }, null, 2);
  }
  const repo = tempTree(tree, 'pantograph-repo-');
  const root = tempTree({
    '.sync.yml':
      `pdk_template:\n  version: 2\n  template_sources:\n    - type: filesystem\n      location: ${repo}\n` +
      `  templates: [${Object.keys(templates).join(', ')}]\n${extra}`,
  });
  return loadProject(root);
}

/** Publishes every template's declared values in dependency order. */
function board(p: Project): SharedSettingsBoard {
  const b = new SharedSettingsBoard(p.applied, p.config);
  for (const t of dependencyOrder(p.applied).order) b.publish(t, declaredPublication(t));
  return b;
}

const names = (ts: readonly LoadedTemplate[]) => ts.map((t) => t.name);
const publishes = (name: string, value: unknown, schema: unknown = { type: 'array' }) => ({
  shared_settings: { [name]: { description: name, schema, value } },
});

describe('dependency order', () => {
  it('puts publishers before subscribers, ties in applied order', async () => {
    const p = await projectOf({
      gemfile: { setting_subscriptions: ['lint_plugins', 'use_litmus'] },
      ci: { setting_subscriptions: ['use_litmus'] },
      plain: {},
      lint: publishes('lint_plugins', ['a']),
      litmus: {
        ...publishes('use_litmus', true, { type: 'boolean' }),
        setting_subscriptions: ['lint_plugins'],
      },
    });
    const { order, problems } = dependencyOrder(p.applied);
    expect(names(order)).toEqual(['plain', 'lint', 'litmus', 'gemfile', 'ci']);
    expect(problems).toEqual([]);
  });

  it('reports a cycle naming it, and still orders every template', async () => {
    const p = await projectOf({
      first: {},
      a: { ...publishes('x', 1, { type: 'integer' }), setting_subscriptions: ['y'] },
      b: { ...publishes('y', 1, { type: 'integer' }), setting_subscriptions: ['x'] },
    });
    const { order, problems } = dependencyOrder(p.applied);
    expect(names(order)).toEqual(['first', 'a', 'b']);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({
      severity: 'error',
      code: 'SHARED_CYCLE',
      message: 'shared settings form a cycle: a -> b -> a',
      file: p.applied[1]!.manifestFile,
      line: 12,
      column: 28,
    });
  });

  it('refuses subscribing to its own publication', async () => {
    const p = await projectOf({ a: { ...publishes('x', ['v']), setting_subscriptions: ['x'] } });
    const { problems } = dependencyOrder(p.applied);
    expect(problems).toMatchObject([
      {
        code: 'SHARED_SELF_SUBSCRIPTION',
        message: "template 'a' subscribes to 'x', which it publishes itself",
        file: p.applied[0]!.manifestFile,
        line: 15,
        column: 5,
      },
    ]);
  });
});

describe('combining publishers', () => {
  it('concatenates arrays in applied order without duplicates', async () => {
    const p = await projectOf({
      one: publishes('gems', ['a', 'b']),
      two: publishes('gems', ['b', 'c']),
      sub: { setting_subscriptions: ['gems'] },
    });
    const b = board(p);
    expect(b.valueOf('gems')).toEqual({
      value: ['a', 'b', 'c'],
      publishers: ['one', 'two'],
      fromProject: false,
    });
    expect(b.problems).toEqual([]);
  });

  it('deep-merges hashes with the earlier publisher winning, and warns on disagreeing scalars', async () => {
    const schema = { type: 'object' };
    const p = await projectOf({
      one: publishes('cfg', { a: 1, nested: { x: 'one' } }, schema),
      two: publishes('cfg', { b: 2, nested: { x: 'two', y: true } }, schema),
    });
    const b = board(p);
    expect(b.valueOf('cfg').value).toEqual({ a: 1n, nested: { x: 'one', y: true }, b: 2n });
    expect(b.problems).toMatchObject([
      {
        severity: 'warning',
        code: 'SHARED_PUBLISHERS_DISAGREE',
        message:
          "templates 'one' and 'two' publish different values for 'cfg' at /nested/x; 'one' (applied first) wins",
        file: p.applied[1]!.manifestFile,
        line: 9,
        column: 16,
      },
    ]);
  });

  it('takes the earliest scalar', async () => {
    const schema = { type: 'boolean' };
    const p = await projectOf({
      one: publishes('flag', false, schema),
      two: publishes('flag', true, schema),
    });
    const b = board(p);
    expect(b.valueOf('flag').value).toBe(false);
    expect(b.problems.map((x) => x.code)).toEqual(['SHARED_PUBLISHERS_DISAGREE']);
  });

  it('requires publishers to declare the same schema, title and description aside', async () => {
    const p = await projectOf({
      one: publishes('gems', [], {
        type: 'array',
        title: 'One',
        items: { type: 'string', description: 'a gem' },
      }),
      two: publishes('gems', [], { type: 'array', title: 'Two', items: { type: 'string' } }),
      three: publishes('gems', [], { type: 'array', items: { type: 'integer' } }),
    });
    const b = new SharedSettingsBoard(p.applied, p.config);
    expect(b.problems).toMatchObject([
      {
        severity: 'error',
        code: 'SHARED_SCHEMA_MISMATCH',
        message: "templates 'one' and 'three' both publish 'gems' with different schemas",
        file: p.applied[2]!.manifestFile,
        line: 6,
        column: 17,
      },
    ]);
  });

  it('combineTwo reports where earlier values won', () => {
    const disagreements: string[] = [];
    expect(
      combineTwo({ a: [1n], s: 'x', h: { k: 1n } }, { a: [2n, 1n], s: 'y', h: { k: 1n } }, '', disagreements),
    ).toEqual({
      a: [1n, 2n],
      s: 'x',
      h: { k: 1n },
    });
    expect(disagreements).toEqual(['/s']);
  });
});

describe('project overrides and edge cases', () => {
  it('merges pdk_template.shared_settings onto the combined value by the layer rules', async () => {
    const p = await projectOf(
      { one: publishes('gems', ['a', 'b']), sub: { setting_subscriptions: ['gems'] } },
      '  shared_settings:\n    gems: [---a, c, ---zz]\n',
    );
    const b = board(p);
    expect(b.valueOf('gems')).toEqual({ value: ['b', 'c'], publishers: ['one'], fromProject: true });
    expect(b.problems).toEqual([
      {
        severity: 'warning',
        code: 'SETTINGS_KNOCKOUT_UNMATCHED',
        message: "knockout '---zz' matches no inherited item; it is dropped",
        file: p.config.file,
        line: 8,
        column: 21,
      },
    ]);
  });

  it('replaces the combined value with !replace', async () => {
    const p = await projectOf(
      { one: publishes('gems', ['a', 'b']), sub: { setting_subscriptions: ['gems'] } },
      '  shared_settings:\n    gems: !replace [z]\n',
    );
    expect(board(p).valueOf('gems').value).toEqual(['z']);
  });

  it('gives nothing to a subscriber when no publisher is applied', async () => {
    const p = await projectOf({ sub: { setting_subscriptions: ['gems'] } });
    expect(board(p).valueOf('gems')).toEqual({ value: undefined, publishers: [], fromProject: false });
  });

  it('validates the final value against the declared schema, at the project override', async () => {
    const p = await projectOf(
      { one: publishes('gems', ['a'], { type: 'array', items: { type: 'string' } }) },
      '  shared_settings:\n    gems: [b, 3]\n',
    );
    const b = board(p);
    expect(b.valueOf('gems').value).toEqual(['a', 'b', 3n]);
    expect(b.problems).toEqual([
      {
        severity: 'error',
        code: 'SETTINGS_INVALID',
        message: "shared setting 'gems[2]' must be a string, by the schema template 'one' publishes it with",
        hint: "fix the value here (or the schema, one/template.json:6:17): until it fits, the templates subscribing to 'gems' render nothing",
        file: p.config.file,
        line: 8,
        column: 15,
      },
    ]);
  });

  it('warns about project overrides nobody publishes or subscribes to', async () => {
    const p = await projectOf({ one: publishes('gems', ['a']) }, '  shared_settings:\n    gem: [b]\n');
    expect(new SharedSettingsBoard(p.applied, p.config).problems).toEqual([
      {
        severity: 'warning',
        code: 'SHARED_UNKNOWN',
        message: "shared setting 'gem' is neither published nor subscribed to by an applied template",
        file: p.config.file,
        line: 8,
        column: 5,
        hint: "did you mean 'gems'?",
      },
    ]);
  });

  it('refuses publishing an undeclared name, and treats null as not published', async () => {
    const p = await projectOf({ one: publishes('gems', ['a']), sub: { setting_subscriptions: ['gems'] } });
    const b = new SharedSettingsBoard(p.applied, p.config);
    b.publish(p.applied[0]!, { gems: null, other: 'x' }, 'hooks/after_project_settings.pp');
    expect(b.valueOf('gems').value).toBeUndefined();
    expect(b.problems).toMatchObject([
      {
        severity: 'error',
        code: 'SHARED_UNDECLARED',
        message:
          "template 'one' publishes 'other', which it does not declare (set by hooks/after_project_settings.pp)",
        file: p.applied[0]!.manifestFile,
      },
    ]);
  });

  it('warns at a subscription nobody publishes, with a did-you-mean over the published names', async () => {
    const p = await projectOf({
      one: publishes('gems', ['a']),
      sub: { setting_subscriptions: ['gemz'] },
    });
    expect(board(p).problems).toEqual([
      {
        severity: 'warning',
        code: 'SHARED_NOT_PUBLISHED',
        message: "template 'sub' subscribes to 'gemz', which no template of the sources publishes",
        file: p.applied[1]!.manifestFile,
        line: 4,
        column: 5,
        hint: "did you mean 'gems'?",
      },
    ]);
  });

  it('is quiet about a subscription an unapplied template publishes, or the project sets', async () => {
    const p = await projectOf({ one: publishes('gems', ['a']), sub: { setting_subscriptions: ['gems'] } });
    const onlySub = p.applied.filter((t) => t.name === 'sub');
    expect(new SharedSettingsBoard(onlySub, p.config, p.available.values()).problems).toEqual([]);
    const set = await projectOf(
      { sub: { setting_subscriptions: ['gems'] } },
      '  shared_settings:\n    gems: [b]\n',
    );
    expect(new SharedSettingsBoard(set.applied, set.config).problems).toEqual([]);
  });
});
