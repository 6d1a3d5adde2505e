import { afterEach, describe, expect, it, vi } from 'vitest';
import { removeTempDirs, snapshotDir, tempDir, tempTree } from '../helpers/fs.js';
import { tempRemote } from '../helpers/git.js';
import { run, runAtWidth, runJson, templates } from './cli-helpers.js';

afterEach(() => {
  removeTempDirs();
  vi.unstubAllEnvs();
});

const SYNC = `pdk_template:
  version: 2
  template_sources:
    - type: filesystem
      location: first
    - type: filesystem
      location: second
  templates: [base]
`;

/** Two filesystem sources inside the project; `base` is in both (the first wins). */
function project(sync = SYNC): string {
  return tempTree({
    '.sync.yml': sync,
    ...templates('first', {
      base: { 'template.json': { description: 'The base.', version: '1.0.0', tags: ['core'] } },
      lint: { 'template.json': { description: 'Lint config.', version: '0.2.0', always_apply: true } },
    }),
    ...templates('second', {
      base: { 'template.json': { description: 'Another base.', version: '9.9.9' } },
      docs: { 'template.json': {} },
    }),
  });
}

describe('pantograph list', () => {
  it('lists every template once, first source winning, and notes the shadowed one', async () => {
    const root = project();
    const before = snapshotDir(root);
    const r = await run(root, 'list');
    expect(r).toEqual({
      code: 0,
      stderr: '',
      stdout: `NAME  VERSION  APPLIED  SOURCE  TAGS       DESCRIPTION
base  1.0.0    yes      first   core,base  The base.
docs  -        no       second  docs       docs
lint  0.2.0    always   first   lint       Lint config.
note: 'base' from second is shadowed by the one from first
`,
    });
    expect(snapshotDir(root)).toEqual(before);
  });

  it('on a narrow terminal, puts each description under its name, folded', async () => {
    const r = await runAtWidth(40, project(), 'list');
    expect(r.stdout).toBe(`NAME  VERSION  APPLIED  SOURCE  TAGS
base  1.0.0    yes      first   core,base
      The base.
docs  -        no       second  docs
      docs
lint  0.2.0    always   first   lint
      Lint config.
note: 'base' from second is shadowed
      by the one from first
`);
  });

  it('filters by tag', async () => {
    const root = project();
    expect(
      (await run(root, 'list', '--tag', 'lint')).stdout,
    ).toBe(`NAME  VERSION  APPLIED  SOURCE  TAGS  DESCRIPTION
lint  0.2.0    always   first   lint  Lint config.
`);
    expect(await run(root, 'list', '--tag', 'nothing')).toEqual({
      code: 0,
      stdout: "no template has the tag 'nothing'\n",
      stderr: 'hint: the tags here: base, core, docs, lint\n',
    });
  });

  it('points a misspelt tag at the one meant', async () => {
    expect(await run(project(), 'list', '--tag', 'lnt')).toEqual({
      code: 0,
      stdout: "no template has the tag 'lnt'\n",
      stderr: "hint: did you mean 'lint'?\n",
    });
  });

  it('marks an always_apply template excluded with ---name', async () => {
    const root = project(SYNC.replace('[base]', '[base, ---lint]'));
    expect((await run(root, 'list', '--tag', 'lint')).stdout).toContain('lint  0.2.0    excluded  first');
  });

  it('gives a stable JSON shape', async () => {
    const root = project();
    const { code, json } = await runJson(root, 'list');
    expect(code).toBe(0);
    const first = { index: 0, type: 'filesystem', location: 'first' };
    const second = { index: 1, type: 'filesystem', location: 'second' };
    expect(json).toEqual({
      templates: [
        {
          name: 'base',
          title: 'base',
          description: 'The base.',
          version: '1.0.0',
          tags: ['core', 'base'],
          always_apply: false,
          applied: 'yes',
          source: first,
        },
        {
          name: 'docs',
          title: 'docs',
          description: 'docs',
          version: null,
          tags: ['docs'],
          always_apply: false,
          applied: 'no',
          source: second,
        },
        {
          name: 'lint',
          title: 'lint',
          description: 'Lint config.',
          version: '0.2.0',
          tags: ['lint'],
          always_apply: true,
          applied: 'always',
          source: first,
        },
      ],
      shadowed: [{ name: 'base', source: second, by: first }],
      broken: [],
    });
  });

  it('takes templates from a git source before a filesystem one of the same name', async () => {
    vi.stubEnv('PANTOGRAPH_CACHE_DIR', tempDir('pantograph-cache-'));
    const remote = tempRemote();
    const commit = remote.commit(templates('.', { base: { 'template.json': { description: 'From git.' } } }));
    const root = project(
      SYNC.replace(
        '  template_sources:\n',
        `  template_sources:\n    - type: git\n      location: ${remote.url}\n      ref: main\n`,
      ),
    );
    const { code, json } = await runJson<{
      templates: { name: string; description: string; source: object }[];
    }>(root, 'list');
    expect(code).toBe(0);
    expect(json.templates[0]).toMatchObject({
      name: 'base',
      description: 'From git.',
      source: { index: 0, type: 'git', location: remote.url, ref: 'main', commit },
    });
    const text = await run(root, 'list', '--offline');
    expect(text.stdout).toContain(`note: 'base' from first is shadowed by the one from ${remote.url}#main\n`);
  });

  it('names the default source `default`', async () => {
    vi.stubEnv('PANTOGRAPH_DEFAULT_SOURCE', tempTree(templates('.', { only: { 'template.json': {} } })));
    const root = tempTree({ '.sync.yml': 'pdk_template:\n  version: 2\n' });
    expect((await run(root, 'list')).stdout).toBe(`NAME  VERSION  APPLIED  SOURCE   TAGS  DESCRIPTION
only  -        no       default  only  only
`);
  });

  it('reports a missing source with its position, and exits 1', async () => {
    const root = tempTree({ '.sync.yml': SYNC });
    const r = await run(root, 'list');
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(
      /^\.sync\.yml:4:7: error: filesystem source 'first': .* is not a directory \[SOURCE_NOT_FOUND\]\n/,
    );
    expect(r.stderr).toContain('> 4 |     - type: filesystem\n');
  });

  it('reports a missing .sync.yml, also as JSON', async () => {
    const root = tempDir();
    expect(await run(root, 'list')).toEqual({
      code: 1,
      stdout: '',
      stderr: `error: no .sync.yml in ${root} [SYNC_NOT_FOUND]
  hint: run \`pantograph init\` to create one, or point at the project with -C DIR
`,
    });
    const { code, json } = await runJson(root, 'list');
    expect(code).toBe(1);
    expect(json).toEqual({
      problems: [
        {
          severity: 'error',
          code: 'SYNC_NOT_FOUND',
          message: `no .sync.yml in ${root}`,
          hint: 'run `pantograph init` to create one, or point at the project with -C DIR',
        },
      ],
    });
  });

  it('warns about a template whose template.json cannot be parsed', async () => {
    const root = tempTree({
      '.sync.yml': SYNC.replace('[base]', '[]'),
      ...templates('first', { base: { 'template.json': '{ nope' } }),
      'second/.keep': '',
    });
    const r = await run(root, 'list');
    expect(r).toEqual({
      code: 0,
      stdout: 'no templates available\n',
      stderr: "warning: template 'base' in first cannot be loaded; run `pantograph validate` to see why\n",
    });
    const { json } = await runJson(root, 'list');
    expect(json.broken).toEqual([
      { name: 'base', source: { index: 0, type: 'filesystem', location: 'first' } },
    ]);
    expect(await run(root, 'show', 'base')).toEqual({
      code: 1,
      stdout: '',
      stderr: "error: template 'base' cannot be loaded\n  hint: run `pantograph validate` to see why\n",
    });
    const v = await runJson<{ problems: { code: string }[] }>(root, 'validate');
    expect(v.json.problems.map((p) => p.code)).toEqual(['TEMPLATE_JSON']);
  });

  it('finds the project with -C', async () => {
    const root = project();
    const r = await run(tempDir(), '-C', root, 'list', '--tag', 'core');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('base  1.0.0    yes      first');
  });
});
