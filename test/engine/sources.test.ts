import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { EngineError } from '../../src/engine/errors.js';
import type { SourceSpec } from '../../src/engine/model.js';
import {
  bundledTemplatesDir,
  checkoutCommit,
  findTemplate,
  listTemplates,
  resetGitFetches,
  resolveSources,
  type SourceOptions,
} from '../../src/engine/sources/index.js';
import { removeTempDirs, snapshotDir, tempDir, tempTree } from '../helpers/fs.js';
import { tempRemote } from '../helpers/git.js';

afterAll(removeTempDirs);
beforeEach(resetGitFetches);

const tpl = (name: string, extra: Record<string, string> = {}) => ({
  [`${name}/template.json`]: JSON.stringify({ name }),
  ...Object.fromEntries(Object.entries(extra).map(([k, v]) => [`${name}/${k}`, v])),
});

const pos = (line: number) => ({ file: '/p/.sync.yml', line, column: 7 });

async function rejection(p: Promise<unknown>): Promise<EngineError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof EngineError) return e;
    throw e;
  }
  throw new Error('expected an EngineError');
}

/** Options with a private cache, so tests never share one. */
function options(root: string, more: Partial<SourceOptions> = {}): SourceOptions {
  return { root, env: { ...process.env, PANTOGRAPH_CACHE_DIR: tempDir('pantograph-cache-') }, ...more };
}

describe('filesystem sources', () => {
  it('resolves absolute and project-relative locations, trusted', async () => {
    const repo = tempTree(tpl('alpha'));
    const project = tempTree({ 'templates/beta/template.json': '{"name": "beta"}' });
    const sources = await resolveSources(
      [
        { type: 'filesystem', location: repo },
        { type: 'filesystem', location: 'templates' },
      ],
      options(project),
    );
    expect(sources.map((s) => [s.index, s.dir, s.trusted])).toEqual([
      [0, repo, true],
      [1, join(project, 'templates'), true],
    ]);
  });

  it('names a missing directory and its position', async () => {
    const project = tempTree({ 'file.txt': 'x' });
    const e = await rejection(
      resolveSources([{ type: 'filesystem', location: 'nope', position: pos(4) }], options(project)),
    );
    expect([e.code, e.where]).toEqual(['SOURCE_NOT_FOUND', '/p/.sync.yml:4:7']);
    expect(e.message).toContain("filesystem source 'nope'");
    const e2 = await rejection(
      resolveSources([{ type: 'filesystem', location: 'file.txt' }], options(project)),
    );
    expect(e2.code).toBe('SOURCE_NOT_FOUND');
  });

  it('reports every failing source at once', async () => {
    const project = tempDir();
    const e = await rejection(
      resolveSources(
        [
          { type: 'filesystem', location: 'a', position: pos(3) },
          { type: 'filesystem', location: 'b', position: pos(5) },
        ],
        options(project),
      ),
    );
    expect(e.problems.map((p) => [p.code, p.line])).toEqual([
      ['SOURCE_NOT_FOUND', 3],
      ['SOURCE_NOT_FOUND', 5],
    ]);
  });
});

describe('the default source', () => {
  it('is the bundled templates directory', async () => {
    const env = { ...process.env };
    delete env.PANTOGRAPH_DEFAULT_SOURCE;
    const [s] = await resolveSources([{ type: 'default', location: 'default' }], { root: tempDir(), env });
    expect(bundledTemplatesDir()).toBe(join(process.cwd(), 'templates'));
    expect(s?.dir).toMatch(/\/templates$/);
    expect(s?.trusted).toBe(true);
  });

  it('follows PANTOGRAPH_DEFAULT_SOURCE', async () => {
    const repo = tempTree(tpl('gamma'));
    const [s] = await resolveSources([{ type: 'default', location: 'default' }], {
      root: tempDir(),
      env: { PANTOGRAPH_DEFAULT_SOURCE: repo },
    });
    expect(s?.dir).toBe(repo);
    const e = await rejection(
      resolveSources([{ type: 'default', location: 'default', position: pos(9) }], {
        root: tempDir(),
        env: { PANTOGRAPH_DEFAULT_SOURCE: join(repo, 'missing') },
      }),
    );
    expect([e.code, e.where]).toEqual(['SOURCE_NOT_FOUND', '/p/.sync.yml:9:7']);
  });
});

describe('findTemplate and listTemplates', () => {
  it('lets the first source that has a template win', async () => {
    const first = tempTree({ ...tpl('shared'), ...tpl('only_first') });
    const second = tempTree({
      ...tpl('shared'),
      ...tpl('only_second'),
      'moduleroot/Gemfile.erb': 'v1',
      'config_defaults.yml': '---\n',
      'Not_Snake/template.json': '{}',
      'no_manifest/files/x': 'x',
      '.git/template.json': '{}',
    });
    const sources = await resolveSources(
      [
        { type: 'filesystem', location: first },
        { type: 'filesystem', location: second },
      ],
      options(tempDir()),
    );
    expect(findTemplate(sources, 'shared')).toEqual({
      name: 'shared',
      dir: join(first, 'shared'),
      source: sources[0],
    });
    expect(findTemplate(sources, 'only_second')?.source.index).toBe(1);
    expect(findTemplate(sources, 'missing')).toBeUndefined();
    expect(findTemplate(sources, 'no_manifest')).toBeUndefined();
    expect(findTemplate(sources, '../shared')).toBeUndefined();

    const listing = listTemplates(sources);
    expect(listing.templates.map((t) => [t.name, t.source.index])).toEqual([
      ['only_first', 0],
      ['only_second', 1],
      ['shared', 0],
    ]);
    expect(listing.shadowed.map((t) => [t.name, t.source.index])).toEqual([['shared', 1]]);
    expect(listing.problems).toMatchObject([
      { code: 'TEMPLATE_NAME', file: join(second, 'Not_Snake', 'template.json'), line: 1, column: 1 },
    ]);
  });
});

describe('git sources', () => {
  const templates = { ...tpl('from_git', { 'files/run.sh': 'echo hi\n' }) };

  it('clones into the cache, resolves the default branch and reports the commit', async () => {
    const remote = tempRemote();
    const c1 = remote.commit(templates);
    const project = tempTree({ '.sync.yml': 'x' });
    const before = snapshotDir(project);
    const opts = options(project);
    const [s] = await resolveSources([{ type: 'git', location: remote.url }], opts);
    const hash = createHash('sha256').update(remote.url).digest('hex');
    expect(s?.commit).toBe(c1);
    expect(s?.dir).toBe(join(opts.env!.PANTOGRAPH_CACHE_DIR!, 'git', hash, 'trees', c1));
    expect(s?.trusted).toBe(false);
    expect(existsSync(join(s!.dir, 'from_git', 'template.json'))).toBe(true);
    expect(findTemplate([s!], 'from_git')?.dir).toBe(join(s!.dir, 'from_git'));
    expect(snapshotDir(project)).toEqual(before);
  });

  it('takes a branch, a tag, a full or short commit as ref', async () => {
    const remote = tempRemote();
    const c1 = remote.commit(templates);
    remote.tag('v1.0.0', c1);
    const c2 = remote.commit({ 'from_git/files/new': 'new' });
    const c3 = remote.commit({ 'other/template.json': '{"name": "other"}' }, { branch: 'feature' });
    const opts = options(tempDir());
    const specs: SourceSpec[] = [
      { type: 'git', location: remote.url, ref: 'main' },
      { type: 'git', location: remote.url, ref: 'v1.0.0' },
      { type: 'git', location: remote.url, ref: c1 },
      { type: 'git', location: remote.url, ref: c2.slice(0, 8) },
      { type: 'git', location: remote.url, ref: 'feature' },
    ];
    const sources = await resolveSources(specs, opts);
    expect(sources.map((s) => s.commit)).toEqual([c2, c1, c1, c2, c3]);
    expect(existsSync(join(sources[1]!.dir, 'from_git/files/new'))).toBe(false);
    expect(existsSync(join(sources[0]!.dir, 'from_git/files/new'))).toBe(true);
    expect(findTemplate(sources, 'other')?.source.index).toBe(4);
  });

  it('keeps the executable bit and symlinks of the checkout', async () => {
    const remote = tempRemote();
    remote.commit({
      ...tpl('x'),
      'x/files/run.sh': { content: '#!/bin/sh\n', mode: 0o755 },
      'x/files/link': { symlink: 'run.sh' },
    });
    const [s] = await resolveSources([{ type: 'git', location: remote.url }], options(tempDir()));
    expect(statSync(join(s!.dir, 'x/files/run.sh')).mode & 0o111).not.toBe(0);
  });

  it('records trust from the source or the --trust option', async () => {
    const remote = tempRemote();
    remote.commit(templates);
    const project = tempDir();
    const opts = options(project);
    const [a, b] = await resolveSources(
      [
        { type: 'git', location: remote.url, trusted: true },
        { type: 'git', location: remote.url },
      ],
      opts,
    );
    expect([a?.trusted, b?.trusted]).toEqual([true, false]);
    const [c] = await resolveSources([{ type: 'git', location: remote.url }], { ...opts, trust: true });
    expect(c?.trusted).toBe(true);
  });

  it('fetches at most once per run', async () => {
    const remote = tempRemote();
    const c1 = remote.commit(templates);
    const opts = options(tempDir());
    const spec: SourceSpec = { type: 'git', location: remote.url, ref: 'main' };
    expect((await resolveSources([spec], opts))[0]?.commit).toBe(c1);
    const c2 = remote.commit({ 'from_git/files/more': 'more' });
    expect((await resolveSources([spec], opts))[0]?.commit).toBe(c1);
    resetGitFetches(); // a new run
    expect((await resolveSources([spec], opts))[0]?.commit).toBe(c2);
  });

  it('uses the locked commit instead of the ref, and checks out any commit', async () => {
    const remote = tempRemote();
    const c1 = remote.commit(templates);
    const c2 = remote.commit({ 'from_git/files/more': 'more' });
    const opts = options(tempDir());
    const spec: SourceSpec = { type: 'git', location: remote.url, ref: 'main' };
    const [s] = await resolveSources([spec], {
      ...opts,
      lockedCommit: (sp) => (sp === spec ? c1 : undefined),
    });
    expect(s?.commit).toBe(c1);
    const dir = await checkoutCommit(spec, c2, { root: opts.root, env: opts.env! });
    expect(existsSync(join(dir, 'from_git/files/more'))).toBe(true);
    // A locked commit the cache has needs no network, even in a new run.
    resetGitFetches();
    const [again] = await resolveSources([spec], { ...opts, offline: true, lockedCommit: () => c1 });
    expect(again?.commit).toBe(c1);
    const e = await rejection(
      resolveSources([spec], { ...opts, offline: true, lockedCommit: () => 'f'.repeat(40) }),
    );
    expect(e.code).toBe('GIT_BAD_REF');
  });

  it('lists the refs a bad ref may have meant: branches, then tags, newest first', async () => {
    const remote = tempRemote();
    const work = tempDir();
    const at = (date: string) => ({ ...process.env, GIT_COMMITTER_DATE: date, GIT_AUTHOR_DATE: date });
    const run = (date: string, ...args: string[]) => execFileSync('git', args, { cwd: work, env: at(date) });
    run('2020-01-01T00:00:00Z', 'clone', '--quiet', remote.bare, '.');
    run(
      '2020-01-01T00:00:00Z',
      '-c',
      'user.name=T',
      '-c',
      'user.email=t@x',
      'commit',
      '--quiet',
      '--allow-empty',
      '-m',
      'a',
    );
    run('2020-01-01T00:00:00Z', 'tag', '1.0.0');
    run(
      '2024-01-01T00:00:00Z',
      '-c',
      'user.name=T',
      '-c',
      'user.email=t@x',
      'commit',
      '--quiet',
      '--allow-empty',
      '-m',
      'b',
    );
    run('2024-01-01T00:00:00Z', 'tag', '2.0.0');
    run('2024-01-01T00:00:00Z', 'push', '--quiet', 'origin', 'HEAD:refs/heads/main', '--tags');
    const spec: SourceSpec = { type: 'git', location: remote.url, ref: 'nothing-alike' };
    const e = await rejection(resolveSources([spec], options(tempDir())));
    expect(e.hint).toBe('known refs (branches, then tags, newest first): main, 2.0.0, 1.0.0');
  });

  it('says so when the locked commit is gone from the remote (its history rewritten), and what to do', async () => {
    const remote = tempRemote();
    remote.commit(templates);
    const spec: SourceSpec = { type: 'git', location: remote.url, ref: 'main', position: pos(5) };
    const gone = 'ab'.repeat(20);
    const e = await rejection(resolveSources([spec], { ...options(tempDir()), lockedCommit: () => gone }));
    expect([e.code, e.where]).toEqual(['GIT_BAD_REF', '/p/.sync.yml:5:7']);
    expect(e.message).toBe(
      `git source '${remote.url}' no longer has commit abababababab, which .pantograph.lock records (was its history rewritten?)`,
    );
    expect(e.hint).toBe(
      "`pantograph update --noop` shows what moving the lock to the latest commit of 'main' changes; `pantograph update` moves it",
    );
  });

  it('resolves a local path location relative to the project', async () => {
    const remote = tempRemote();
    const c1 = remote.commit(templates);
    const [s] = await resolveSources([{ type: 'git', location: remote.bare }], options('/'));
    expect(s?.commit).toBe(c1);
  });

  it('works offline from the cache, and says so when the cache is empty', async () => {
    const remote = tempRemote();
    const c1 = remote.commit(templates);
    const opts = options(tempDir());
    const spec: SourceSpec = { type: 'git', location: remote.url, position: pos(6) };
    const e = await rejection(resolveSources([spec], { ...opts, offline: true }));
    expect([e.code, e.where]).toEqual(['GIT_OFFLINE', '/p/.sync.yml:6:7']);
    expect(e.message).toContain(remote.url);
    await resolveSources([spec], opts);
    remote.commit({ 'from_git/files/more': 'more' });
    resetGitFetches();
    expect((await resolveSources([spec], { ...opts, offline: true }))[0]?.commit).toBe(c1);
  });

  it('names an unreachable remote', async () => {
    const spec: SourceSpec = { type: 'git', location: 'file:///nonexistent/repo.git', position: pos(3) };
    const e = await rejection(resolveSources([spec], options(tempDir())));
    expect([e.code, e.where]).toEqual(['GIT_UNREACHABLE', '/p/.sync.yml:3:7']);
    expect(e.message).toBe(
      "git source 'file:///nonexistent/repo.git' cannot be fetched from file:///nonexistent/repo.git: '/nonexistent/repo.git' does not appear to be a git repository",
    );
  });

  it('names a bad ref, with a did-you-mean', async () => {
    const remote = tempRemote();
    remote.commit(templates);
    const spec: SourceSpec = { type: 'git', location: remote.url, ref: 'mian', position: pos(8) };
    const e = await rejection(resolveSources([spec], options(tempDir())));
    expect([e.code, e.where, e.hint]).toEqual(['GIT_BAD_REF', '/p/.sync.yml:8:7', "did you mean 'main'?"]);
    expect(e.message).toBe(`git source '${remote.url}' has no branch, tag or commit 'mian'`);
    const e2 = await rejection(
      resolveSources([{ ...spec, ref: 'ffffffffffffffffffffffffffffffffffffffff' }], options(tempDir())),
    );
    expect(e2.code).toBe('GIT_BAD_REF');
  });

  it('lets a git source shadow a filesystem source of the same template, and the reverse', async () => {
    const remote = tempRemote();
    remote.commit(tpl('same'));
    const local = tempTree(tpl('same'));
    const opts = options(tempDir());
    const git: SourceSpec = { type: 'git', location: remote.url };
    const fs: SourceSpec = { type: 'filesystem', location: local };
    const gitFirst = await resolveSources([git, fs], opts);
    expect(findTemplate(gitFirst, 'same')?.source.spec.type).toBe('git');
    expect(listTemplates(gitFirst).shadowed.map((t) => t.source.spec.type)).toEqual(['filesystem']);
    const fsFirst = await resolveSources([fs, git], opts);
    expect(findTemplate(fsFirst, 'same')?.dir).toBe(join(local, 'same'));
  });

  it('says when git is missing', async () => {
    const spec: SourceSpec = { type: 'git', location: 'https://example.com/t.git', position: pos(2) };
    const e = await rejection(resolveSources([spec], options(tempDir(), { gitBinary: '/nonexistent/git' })));
    expect([e.code, e.where]).toEqual(['GIT_NOT_FOUND', '/p/.sync.yml:2:7']);
    expect(e.hint).toContain('install git');
  });
});
