/**
 * `status` keeps a clean answer and gives it again while nothing it came from changed (src/engine/answer-memo.ts).
 * Every kind of input is changed once after an answer was kept: the memo must not answer, and `status`
 * must report the change. Files must have settled (SETTLE_MS) before an answer is kept, so the projects
 * are all made first and the tests wait once.
 */
import { spawnSync } from 'node:child_process';
import {
  appendFileSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { commandMemo } from '../../src/cli/command-memo.js';
import { resetGitFetches } from '../../src/engine/sources/git.js';
import { SETTLE_MS } from '../../src/sync/index.js';
import { tempDir, tempTree } from '../helpers/fs.js';
import { tempRemote } from '../helpers/git.js';
import { run, templates } from './cli-helpers.js';

interface Fixture {
  readonly root: string;
  readonly repo: string;
}

/** A filesystem template repository and a project applying its template `t`, applied. */
async function appliedProject(
  extra: Record<string, string | object> = {},
  sync = '',
  own: Record<string, string> = {},
): Promise<Fixture> {
  const repo = tempTree(
    templates('.', {
      t: {
        'template.json': { default_settings: { who: 'world' } },
        'files/hello.txt.epp': 'hello <%= $who %>\n',
        'files/conf/app.conf': 'plain = true\n',
        ...extra,
      },
    }),
  );
  const root = tempTree({
    ...own,
    '.sync.yml': `pdk_template:\n  version: 2\n  template_sources:\n    - type: filesystem\n      location: ${repo}\n  templates: [t]\n${sync}`,
  });
  const applied = await run(root, 'apply');
  expect(applied.code, applied.stderr).toBe(0);
  return { root, repo };
}

/** What the memo answers now for `pantograph ...argv` in `cwd` (as the command line asks it). */
const kept = (cwd: string, ...argv: string[]) => commandMemo('status', argv, cwd, false).lookup();

const CLEAN = 'all 2 files in line: no drift\n';

const names = [
  'same',
  'edited',
  'template',
  'added',
  'sync',
  'metadata',
  'lock',
  'deleted',
  'symlink',
  'env',
  'damaged',
  'gitdir',
] as const;
const projects = {} as Record<(typeof names)[number], Fixture>;

beforeAll(async () => {
  for (const name of names) {
    // `conf/` there before: the lock does not name it as a directory Pantograph made.
    projects[name] = await appliedProject({}, '', name === 'symlink' ? { 'conf/own.txt': 'mine\n' } : {});
  }
  // A template repository that is a git working copy: its `.git` is no input of a plan.
  mkdirSync(join(projects.gitdir.repo, '.git', 'objects'), { recursive: true });
  await new Promise((done) => setTimeout(done, SETTLE_MS + 100));
  // The answer each test starts from: kept, and given again.
  for (const name of names) {
    const { root } = projects[name];
    expect(await run(root, 'status')).toEqual({ code: 0, stdout: CLEAN, stderr: '' });
    expect(kept(root, 'status')).toBe(CLEAN);
  }
}, 60_000);

describe('the status memo', () => {
  it('answers only the same arguments in the same directory', async () => {
    const { root } = projects.same;
    expect(kept(root, 'status')).toBe(CLEAN);
    expect(kept(root, 'status', '--all')).toBeUndefined();
    expect(kept(resolve(root, 'conf'), 'status')).toBeUndefined();
    expect(kept(resolve(root, '..'), '-C', root, 'status')).toBeUndefined();
    expect((await run(root, 'status')).stdout).toBe(CLEAN); // answered from the memo: the same text
  });

  it('does not answer once a project file was edited, even to the same size', async () => {
    const { root } = projects.edited;
    writeFileSync(join(root, 'hello.txt'), 'HELLO world\n');
    const memos = () => readdirSync(join(process.env.PANTOGRAPH_CACHE_DIR!, 'answers')).length;
    const before = memos();
    expect(kept(root, 'status')).toBeUndefined();
    expect(memos()).toBe(before - 1); // stale for good: removed, not compared again on every run
    const r = await run(root, 'status');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/edited +hello\.txt/);
  });

  it('does not answer once a template file changed', async () => {
    const { root, repo } = projects.template;
    writeFileSync(join(repo, 't', 'files', 'hello.txt.epp'), 'goodbye <%= $who %>\n');
    expect(kept(root, 'status')).toBeUndefined();
    expect((await run(root, 'status')).stdout).toMatch(/changed +hello\.txt/);
  });

  it('does not answer once a file was added to a template', async () => {
    const { root, repo } = projects.added;
    writeFileSync(join(repo, 't', 'files', 'conf', 'new.conf'), 'new = 1\n');
    expect(kept(root, 'status')).toBeUndefined();
    expect((await run(root, 'status')).stdout).toMatch(/create +conf\/new\.conf/);
  });

  it('does not answer once .sync.yml changed', async () => {
    const { root } = projects.sync;
    appendFileSync(join(root, '.sync.yml'), 't:\n  who: you\n');
    expect(kept(root, 'status')).toBeUndefined();
    expect((await run(root, 'status')).stdout).toMatch(/changed +hello\.txt/);
  });

  it('does not answer once metadata.json appeared', async () => {
    const { root } = projects.metadata;
    writeFileSync(join(root, 'metadata.json'), '{"name": "acme-widget"}');
    expect(kept(root, 'status')).toBeUndefined();
  });

  it('does not answer once the lock changed', async () => {
    const { root } = projects.lock;
    const lock = join(root, '.pantograph.lock');
    writeFileSync(lock, readFileSync(lock, 'utf8').replace('"hello.txt"', '"hello.txt" '));
    expect(kept(root, 'status')).toBeUndefined();
    expect((await run(root, 'status')).code).toBe(0);
  });

  it('does not answer once a planned file was deleted', async () => {
    const { root } = projects.deleted;
    rmSync(join(root, 'conf', 'app.conf'));
    expect(kept(root, 'status')).toBeUndefined();
    expect((await run(root, 'status')).stdout).toMatch(/create +conf\/app\.conf/);
  });

  it('does not answer once a directory became a symlink to the same files', async () => {
    const { root } = projects.symlink;
    expect(readFileSync(join(root, '.pantograph.lock'), 'utf8')).not.toContain('"conf"');
    renameSync(join(root, 'conf'), join(root, 'elsewhere'));
    symlinkSync(join(root, 'elsewhere'), join(root, 'conf'));
    expect(kept(root, 'status')).toBeUndefined();
  });

  it("still answers when only the template repository's .git changed (a fetch, a commit elsewhere)", () => {
    const { root, repo } = projects.gitdir;
    writeFileSync(join(repo, '.git', 'objects', 'pack-1'), 'objects');
    writeFileSync(join(repo, '.git', 'FETCH_HEAD'), 'abc');
    expect(kept(root, 'status')).toBe(CLEAN);
    writeFileSync(join(repo, 't', 'files', 'conf', 'app.conf'), 'plain = false\n'); // a template file: no answer
    expect(kept(root, 'status')).toBeUndefined();
  });

  it('does not answer under another value of a variable Pantograph reads', () => {
    const { root } = projects.env;
    vi.stubEnv('PANTOGRAPH_UNTRUSTED_TIME_LIMIT', '7');
    try {
      expect(kept(root, 'status')).toBeUndefined();
    } finally {
      vi.unstubAllEnvs();
    }
    expect(kept(root, 'status')).toBe(CLEAN);
  });

  it('ignores a damaged or foreign memo, and answers again after the next clean run', async () => {
    const { root } = projects.damaged;
    const dir = join(process.env.PANTOGRAPH_CACHE_DIR!, 'answers');
    const memoFile = readdirSync(dir)
      .map((n) => join(dir, n))
      .find((f) => readFileSync(f, 'utf8').includes(JSON.stringify(root).slice(1, -1)))!;
    const good = readFileSync(memoFile, 'utf8');
    for (const bad of [
      '',
      '{',
      'null',
      '[]',
      good.replace('"answer"', '"answr"'),
      good.replace(/"identities":\["/, '"identities":[1,"'),
    ]) {
      writeFileSync(memoFile, bad);
      expect(kept(root, 'status')).toBeUndefined();
    }
    expect(await run(root, 'status')).toEqual({ code: 0, stdout: CLEAN, stderr: '' });
    expect(kept(root, 'status')).toBe(CLEAN);
  });
});

describe('no secret in a memo', () => {
  it("holds no git variable's value, and nothing is kept with a V1 repository's URL", async () => {
    const { root } = projects.same;
    const memoTexts = () => {
      const dir = join(process.env.PANTOGRAPH_CACHE_DIR!, 'answers');
      return readdirSync(dir).map((n) => readFileSync(join(dir, n), 'utf8'));
    };
    vi.stubEnv('GIT_HTTP_EXTRAHEADER', 'Authorization: Bearer s3cret-token');
    try {
      expect((await run(root, 'status', '--all')).code).toBe(0);
      expect(kept(root, 'status', '--all')).toContain('hello.txt'); // kept, under this environment
    } finally {
      vi.unstubAllEnvs();
    }
    const url = 'https://user:s3cret-password@git.example.com/templates.git';
    await run(root, 'status', '--template-url', url);
    expect(kept(root, 'status', '--template-url', url)).toBeUndefined();
    for (const text of memoTexts()) expect(text).not.toMatch(/s3cret/);
  });
});

describe('answers the memo does not keep', () => {
  it('any under --no-memo (and that run keeps nothing either)', async () => {
    const { root } = projects.same;
    expect((await run(root, 'status', '--no-memo')).stdout).toBe(CLEAN);
    expect(kept(root, 'status', '--no-memo')).toBeUndefined();
    expect(kept(root, 'status')).toBe(CLEAN);
  });

  it('one made from files not settled yet (written within SETTLE_MS)', async () => {
    const { root } = await appliedProject();
    expect((await run(root, 'status')).stdout).toBe(CLEAN);
    expect(kept(root, 'status')).toBeUndefined();
  });

  it('drift, a template with a JavaScript hook, and a glob in delete', async () => {
    const drift = await appliedProject();
    const hooked = await appliedProject({
      'hooks/after_default_settings.mjs': 'export default (state) => state;\n',
    });
    const globbed = await appliedProject({}, '  delete: ["*.bak"]\n');
    await new Promise((done) => setTimeout(done, SETTLE_MS + 100));
    rmSync(join(drift.root, 'hello.txt'));
    expect((await run(drift.root, 'status')).code).toBe(0);
    expect(kept(drift.root, 'status')).toBeUndefined();
    for (const { root } of [hooked, globbed]) {
      expect((await run(root, 'status')).stdout).toBe(CLEAN);
      expect(kept(root, 'status')).toBeUndefined();
    }
  });
});

describe('a git source', () => {
  it('at its locked commit: kept while upstream moves on, not once `update` took the new commit', async () => {
    const remote = tempRemote();
    const tree = (text: string) =>
      templates('.', { t: { 'template.json': {}, 'files/hello.txt.epp': `${text}\n` } });
    remote.commit(tree('one'));
    const root = tempTree({
      '.sync.yml': `pdk_template:\n  version: 2\n  template_sources:\n    - type: git\n      location: ${remote.url}\n      trusted: true\n  templates: [t]\n`,
    });
    expect((await run(root, 'apply')).code).toBe(0);
    await new Promise((done) => setTimeout(done, SETTLE_MS + 100));
    const clean = 'all 1 file in line: no drift\n';
    expect((await run(root, 'status')).stdout).toBe(clean);
    expect(kept(root, 'status')).toBe(clean);
    remote.commit(tree('two')); // status stays at the locked commit: upstream moving is no drift
    expect(kept(root, 'status')).toBe(clean);
    resetGitFetches(); // as a new process would, `update` fetches again
    expect((await run(root, 'update')).code).toBe(0);
    expect(readFileSync(join(root, 'hello.txt'), 'utf8')).toBe('two\n');
    expect(kept(root, 'status')).toBeUndefined();
    expect((await run(root, 'status')).stdout).toBe(clean);
  });
});

describe('the built command', () => {
  it('prints the kept answer before loading the command line, byte for byte', async () => {
    const { root } = await appliedProject();
    const bin = resolve(import.meta.dirname, '../../dist/cli/bin.cjs');
    const cache = tempDir('pantograph-memo-cache-');
    const status = () =>
      spawnSync(process.execPath, [bin, 'status'], {
        cwd: root,
        encoding: 'utf8',
        env: { ...process.env, PANTOGRAPH_CACHE_DIR: cache },
      });
    await new Promise((done) => setTimeout(done, SETTLE_MS + 100));
    const first = status();
    expect(first.stdout).toBe(CLEAN);
    expect(readdirSync(join(cache, 'answers'))).toHaveLength(1);
    const second = status();
    expect({ code: second.status, stdout: second.stdout, stderr: second.stderr }).toEqual({
      code: 0,
      stdout: CLEAN,
      stderr: '',
    });
    // An edit is seen by the built command too.
    mkdirSync(join(root, 'conf'), { recursive: true });
    writeFileSync(join(root, 'conf', 'app.conf'), 'plain = false\n');
    expect(status().stdout).toMatch(/edited +conf\/app\.conf/);
  });
});
