import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { removeTempDirs, snapshotDir, tempDir, tempTree } from '../helpers/fs.js';
import { tempRemote } from '../helpers/git.js';
import { run, templates } from './cli-helpers.js';

afterEach(() => {
  removeTempDirs();
  vi.unstubAllEnvs();
});

const REPO = templates('tpl', {
  alpha: { 'template.json': {} },
  beta: { 'template.json': {} },
  gamma: { 'template.json': {} },
  lint: { 'template.json': { always_apply: true } },
});

/** A project whose `.sync.yml` is `sync`, with the `tpl` repository inside it. */
function project(sync: string): string {
  return tempTree({ '.sync.yml': sync, ...REPO });
}

const syncOf = (root: string) => readFileSync(join(root, '.sync.yml'), 'utf8');

const FLOW = `# Our project
pdk_template:
  version: 2   # keep me
  template_sources:
    - type: filesystem
      location: tpl   # ours
  templates: [alpha, ---lint]  # applied in order
  purge: yes
alpha:
  key: "quoted"   # a setting
`;

describe('pantograph add template', () => {
  it('appends to a flow list, keeping every comment and spelling', async () => {
    const root = project(FLOW);
    expect(await run(root, 'add', 'template', 'beta')).toEqual({
      code: 0,
      stdout: "added template 'beta' to .sync.yml\n",
      stderr: '',
    });
    expect(syncOf(root)).toBe(FLOW.replace('[alpha, ---lint]', '[alpha, ---lint, beta]'));
  });

  it('appends to a block list with its indentation, after a trailing comment', async () => {
    const sync = `pdk_template:
  version: 2
  template_sources:
  - type: filesystem
    location: tpl
  templates:
      - alpha    # first
      - beta
  # the end of pdk_template
alpha: {}
`;
    const root = project(sync);
    expect((await run(root, 'add', 'template', 'gamma')).code).toBe(0);
    expect(syncOf(root)).toBe(sync.replace('      - beta\n', '      - beta\n      - gamma\n'));
    expect((await run(root, 'validate')).code).toBe(0);
  });

  it('keeps Windows line ends', async () => {
    const sync =
      'pdk_template:\r\n  version: 2\r\n  template_sources: [{type: filesystem, location: tpl}]\r\n  templates:\r\n    - alpha\r\n';
    const root = project(sync);
    expect((await run(root, 'add', 'template', 'beta')).code).toBe(0);
    expect(syncOf(root)).toBe(`${sync}    - beta\r\n`);
  });

  it('creates the templates list when there is none', async () => {
    const sync =
      'pdk_template:\n  version: 2\n  template_sources: [{type: filesystem, location: tpl}]\n# settings\nalpha: {}\n';
    const root = project(sync);
    expect((await run(root, 'add', 'template', 'alpha')).code).toBe(0);
    expect(syncOf(root)).toBe(sync.replace('tpl}]\n', 'tpl}]\n  templates: [alpha]\n'));
  });

  it('falls back to printing the Document for shapes it cannot splice, comments kept', async () => {
    const root = project(
      '# top\npdk_template: {version: 2, template_sources: [{type: filesystem, location: tpl}]}\n',
    );
    expect((await run(root, 'add', 'template', 'alpha')).code).toBe(0);
    expect(syncOf(root)).toBe(
      '# top\npdk_template: { version: 2, template_sources: [ { type: filesystem, location: tpl } ], templates: [ alpha ] }\n',
    );
    const empty = project(
      'pdk_template:\n  version: 2\n  template_sources: [{type: filesystem, location: tpl}]\n  templates:\n',
    );
    expect((await run(empty, 'add', 'template', 'beta')).code).toBe(0);
    expect((await run(empty, 'list')).stdout).toMatch(/^beta +- +yes /m);
  });

  it('turns an exclusion ---name into the name, in place', async () => {
    const root = project(FLOW);
    expect(await run(root, 'add', 'template', 'lint')).toEqual({
      code: 0,
      stdout: "added template 'lint' to .sync.yml (replacing '---lint')\n",
      stderr: '',
    });
    expect(syncOf(root)).toBe(FLOW.replace('[alpha, ---lint]', '[alpha, lint]'));
  });

  it('does nothing for a template already listed', async () => {
    const root = project(FLOW);
    expect(await run(root, 'add', 'template', 'alpha')).toEqual({
      code: 0,
      stdout: "template 'alpha' is already listed in .sync.yml; nothing to do\n",
      stderr: '',
    });
    expect(syncOf(root)).toBe(FLOW);
  });

  it('refuses a template no source has, with a suggestion, leaving the file untouched', async () => {
    const root = project(FLOW);
    const before = snapshotDir(root);
    expect(await run(root, 'add', 'template', 'bta')).toEqual({
      code: 1,
      stdout: '',
      stderr:
        "error: unknown template 'bta': no template source of this project has it\n  hint: did you mean 'beta'?\n",
    });
    expect(snapshotDir(root)).toEqual(before);
  });

  it('refuses a V1 .sync.yml with its position', async () => {
    const root = project('# V1\nGemfile:\n  required: {}\n');
    const before = snapshotDir(root);
    const r = await run(root, 'add', 'template', 'alpha');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^\.sync\.yml:2:1: error: .* V1 file \[SYNC_V1\]\n/);
    expect(snapshotDir(root)).toEqual(before);
  });

  it('refuses a .sync.yml with a YAML syntax error, naming its line', async () => {
    const root = project('pdk_template:\n  version: 2\n  templates: [alpha\n');
    const before = snapshotDir(root);
    const r = await run(root, 'add', 'template', 'beta');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^\.sync\.yml:4:1: error: .*\[SYNC_YAML\]\n/);
    expect(snapshotDir(root)).toEqual(before);
  });
});

describe('pantograph add source', () => {
  it('inserts a filesystem source before default, leaving default’s comment with it', async () => {
    const sync = `pdk_template:
  version: 2
  template_sources:
    - type: filesystem
      location: tpl
    # the shipped templates
    - default
  templates: [alpha]
`;
    const root = project(sync);
    const other = tempTree(templates('.', { delta: { 'template.json': {} } }));
    expect(await run(root, 'add', 'source', 'filesystem', `location=${other}`)).toEqual({
      code: 0,
      stdout: `added source ${other} (filesystem) to .sync.yml\n`,
      stderr: '',
    });
    expect(syncOf(root)).toBe(
      sync.replace(
        '    # the shipped',
        `    - type: filesystem\n      location: ${other}\n    # the shipped`,
      ),
    );
    expect((await run(root, 'add', 'template', 'delta')).code).toBe(0);
  });

  it('inserts a git source with ref and trusted into a flow list', async () => {
    vi.stubEnv('PANTOGRAPH_CACHE_DIR', tempDir('pantograph-cache-'));
    const remote = tempRemote();
    remote.commit(templates('.', { delta: { 'template.json': {} } }), { branch: 'main' });
    const sync = 'pdk_template:\n  version: 2\n  template_sources: [default]  # only\n';
    const root = project(sync);
    const r = await run(root, 'add', 'source', 'git', `location=${remote.url}`, 'ref=main', 'trusted=true');
    expect(r).toEqual({
      code: 0,
      stdout: `added source ${remote.url}#main (git) to .sync.yml\n`,
      stderr: '',
    });
    expect(syncOf(root)).toBe(
      sync.replace(
        '[default]',
        `[{ type: git, location: ${remote.url}, ref: main, trusted: true }, default]`,
      ),
    );
  });

  it('--offline checks a git source in the cache, and says so when the cache does not have it', async () => {
    vi.stubEnv('PANTOGRAPH_CACHE_DIR', tempDir('pantograph-cache-'));
    const remote = tempRemote();
    remote.commit(templates('.', { delta: { 'template.json': {} } }), { branch: 'main' });
    const addOffline = (dir: string, ref: string) =>
      run(dir, 'add', 'source', 'git', `location=${remote.url}`, `ref=${ref}`, '--offline');
    const sync = 'pdk_template:\n  version: 2\n  template_sources: [default]\n';
    // not in the cache: written, unchecked, and said so
    const first = project(sync);
    const unchecked = await addOffline(first, 'main');
    expect(unchecked).toEqual({
      code: 0,
      stdout: `added source ${remote.url}#main (git) to .sync.yml\n`,
      stderr:
        'note: not fetched or checked (--offline, and the cache does not have it): the next run without --offline fetches it, `pantograph validate` checks it\n',
    });
    expect(syncOf(first)).toContain(`location: ${remote.url}, ref: main }`);
    // once fetched, --offline checks it there: a ref the cache does not have is refused, nothing written
    expect((await run(first, 'status')).code).toBe(0);
    const second = project(sync);
    const before = snapshotDir(second);
    const wrong = await addOffline(second, 'mian');
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain("'mian'");
    expect(snapshotDir(second)).toEqual(before);
    const right = await addOffline(second, 'main');
    expect(right).toMatchObject({ code: 0, stderr: '' });
  });

  it('creates template_sources as [new, default] after the version when there is none', async () => {
    const sync = '# mine\npdk_template:\n  version: 2 # two\n  templates: []\n';
    const root = project(sync);
    expect((await run(root, 'add', 'source', 'filesystem', 'location=tpl')).code).toBe(0);
    expect(syncOf(root)).toBe(`# mine
pdk_template:
  version: 2 # two
  template_sources:
    - type: filesystem
      location: tpl
    - default
  templates: []
`);
  });

  it('quotes a location YAML 1.1 would misread', async () => {
    const root = tempTree({
      '.sync.yml': 'pdk_template:\n  version: 2\n',
      'yes/alpha/template.json': '{"name": "a"}',
    });
    expect((await run(root, 'add', 'source', 'filesystem', 'location=yes')).code).toBe(0);
    expect(syncOf(root)).toContain('      location: "yes"\n');
    expect((await run(root, 'list')).stdout).toMatch(/^alpha +- +no +yes +alpha +a\n/m);
  });

  it('does nothing for a source already listed', async () => {
    const root = project(FLOW);
    expect(await run(root, 'add', 'source', 'filesystem', 'location=tpl')).toEqual({
      code: 0,
      stdout: 'source tpl is already listed in .sync.yml; nothing to do\n',
      stderr: '',
    });
    expect(syncOf(root)).toBe(FLOW);
  });

  it.each([
    [
      ['filesystem'],
      'error: a source needs a location\n  hint: e.g. pantograph add source filesystem location=../templates\n',
    ],
    [['svn', 'location=x'], "error: unknown source type 'svn'\n  hint: use `filesystem` or `git`\n"],
    [
      ['git', 'location=x', 'reff=main'],
      "error: unknown source option 'reff'\n  hint: did you mean 'ref'?\n",
    ],
    [['git', 'location'], "error: expected key=value, got 'location'\n  hint: did you mean 'location'?\n"],
    [['filesystem', 'location=tpl', 'ref=main'], 'error: ref applies to git sources only\n'],
    [['git', 'location=x', 'trusted=yes'], "error: trusted must be true or false, not 'yes'\n"],
    [
      ['filesystem', 'location=elsewhere'],
      /^error: filesystem source 'elsewhere': .*elsewhere is not a directory \[SOURCE_NOT_FOUND\]\n/,
    ],
    [['filesystem', 'location=tpl2', 'location=tpl3'], "error: 'location' is given twice\n"],
  ])('refuses bad input %j, leaving the file untouched', async (args, message) => {
    const root = project(FLOW);
    const before = snapshotDir(root);
    const r = await run(root, 'add', 'source', ...args);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    if (typeof message === 'string') expect(r.stderr).toBe(message);
    else expect(r.stderr).toMatch(message);
    expect(snapshotDir(root)).toEqual(before);
  });
});
