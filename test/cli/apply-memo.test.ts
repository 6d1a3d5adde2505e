/**
 * `apply` keeps an answer where it had nothing to do and gives it again while nothing it came from changed
 * (src/cli/command-memo.ts, src/engine/answer-memo.ts): the same mechanism as `status`'s memo
 * (status-memo.test.ts covers each kind of input). What matters here is that a kept answer never stands
 * in for a write: after each kind of change, `apply` must do the work. Files must have settled
 * (SETTLE_MS) before an answer is kept, so the projects are all made first and the tests wait once.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { commandMemo } from '../../src/cli/command-memo.js';
import { RUN_LOCK_FILE, SETTLE_MS } from '../../src/sync/index.js';
import { tempDir, tempTree } from '../helpers/fs.js';
import { run, templates } from './cli-helpers.js';

interface Fixture {
  readonly root: string;
  readonly repo: string;
}

/** A filesystem template repository and a project applying its template `t`, applied. */
async function appliedProject(sync = ''): Promise<Fixture> {
  const repo = tempTree(
    templates('.', {
      t: {
        'template.json': { default_settings: { who: 'world' } },
        'files/hello.txt.epp': 'hello <%= $who %>\n',
        'files/conf/app.conf': 'plain = true\n',
      },
    }),
  );
  const root = tempTree({
    '.sync.yml': `pdk_template:\n  version: 2\n  template_sources:\n    - type: filesystem\n      location: ${repo}\n  templates: [t]\n${sync}`,
  });
  const applied = await run(root, 'apply');
  expect(applied.code, applied.stderr).toBe(0);
  return { root, repo };
}

/** What the memo answers now for `pantograph ...argv` in `cwd` (as the command line asks it). */
const kept = (cwd: string, ...argv: string[]) => commandMemo('apply', argv, cwd, false).lookup();

const NOTHING = 'Nothing to change\n';

const names = ['same', 'template', 'deleted', 'edited', 'sync', 'noop', 'locked', 'update'] as const;
const projects = {} as Record<(typeof names)[number], Fixture>;

beforeAll(async () => {
  for (const name of names) projects[name] = await appliedProject();
  await new Promise((done) => setTimeout(done, SETTLE_MS + 100));
  // The answer each test starts from: an apply with nothing to change, kept.
  for (const name of names) {
    const { root } = projects[name];
    expect(await run(root, 'apply')).toEqual({ code: 0, stdout: NOTHING, stderr: '' });
    expect(kept(root, 'apply')).toBe(NOTHING);
  }
}, 60_000);

describe('the apply memo', () => {
  it('answers the same arguments in the same directory, and nothing else', async () => {
    const { root } = projects.same;
    expect((await run(root, 'apply')).stdout).toBe(NOTHING);
    expect(kept(root, 'apply', '--diff')).toBeUndefined();
    expect(kept(resolve(root, 'conf'), 'apply')).toBeUndefined();
    // status's answers are its own
    expect(commandMemo('status', ['apply'], root, false).lookup()).toBeUndefined();
  });

  it('does not stand in for writing a changed template output', async () => {
    const { root, repo } = projects.template;
    writeFileSync(join(repo, 't', 'files', 'hello.txt.epp'), 'goodbye <%= $who %>\n');
    expect(kept(root, 'apply')).toBeUndefined();
    const r = await run(root, 'apply');
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(join(root, 'hello.txt'), 'utf8')).toBe('goodbye world\n');
  });

  it('does not stand in for creating a planned file that was deleted', async () => {
    const { root } = projects.deleted;
    rmSync(join(root, 'conf', 'app.conf'));
    expect(kept(root, 'apply')).toBeUndefined();
    expect((await run(root, 'apply')).code).toBe(0);
    expect(readFileSync(join(root, 'conf', 'app.conf'), 'utf8')).toBe('plain = true\n');
  });

  it('does not answer once a file was edited by hand, nor keeps an answer that kept the edit', async () => {
    const { root } = projects.edited;
    writeFileSync(join(root, 'hello.txt'), 'HELLO world\n');
    expect(kept(root, 'apply')).toBeUndefined();
    await new Promise((done) => setTimeout(done, SETTLE_MS + 100)); // settled: only the answer stops it
    const r = await run(root, 'apply');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/hello\.txt/);
    expect(r.stdout).not.toBe(NOTHING);
    expect(readFileSync(join(root, 'hello.txt'), 'utf8')).toBe('HELLO world\n');
    expect(kept(root, 'apply')).toBeUndefined(); // a skipped file is no answer to keep
    expect((await run(root, 'apply', '--force')).code).toBe(0);
    expect(readFileSync(join(root, 'hello.txt'), 'utf8')).toBe('hello world\n');
  });

  it('does not stand in for applying a changed .sync.yml', async () => {
    const { root } = projects.sync;
    appendFileSync(join(root, '.sync.yml'), 't:\n  who: you\n');
    expect(kept(root, 'apply')).toBeUndefined();
    expect((await run(root, 'apply')).code).toBe(0);
    expect(readFileSync(join(root, 'hello.txt'), 'utf8')).toBe('hello you\n');
  });

  it('keeps `--noop` apart, and never keeps a noop that would change something', async () => {
    const { root, repo } = projects.noop;
    expect((await run(root, 'apply', '--noop')).stdout).toBe('Nothing would change\n');
    expect(kept(root, 'apply', '--noop')).toBe('Nothing would change\n');
    writeFileSync(join(repo, 't', 'files', 'hello.txt.epp'), 'bye <%= $who %>\n');
    await new Promise((done) => setTimeout(done, SETTLE_MS + 100)); // settled: only the answer stops it
    const r = await run(root, 'apply', '--noop');
    expect(r.stdout).toMatch(/Would have changed 1 file/);
    expect(kept(root, 'apply', '--noop')).toBeUndefined();
    expect(readFileSync(join(root, 'hello.txt'), 'utf8')).toBe('hello world\n');
  });

  it('gives no answer while another run holds the run lock', async () => {
    const { root } = projects.locked;
    writeFileSync(join(root, RUN_LOCK_FILE), `${process.pid}\n`); // a live process: this test's
    try {
      expect(kept(root, 'apply')).toBeUndefined();
      const r = await run(root, 'apply');
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(RUN_LOCK_FILE);
    } finally {
      rmSync(join(root, RUN_LOCK_FILE), { force: true });
    }
  });

  it('is never used by `update`, and `apply --no-memo` plans and keeps nothing', async () => {
    const { root } = projects.update;
    const answers = () => readdirSync(join(process.env.PANTOGRAPH_CACHE_DIR!, 'answers')).length;
    const before = answers();
    expect((await run(root, 'update')).code).toBe(0);
    expect((await run(root, 'apply', '--no-memo')).stdout).toBe(NOTHING);
    expect(kept(root, 'apply', '--no-memo')).toBeUndefined();
    expect(answers()).toBe(before);
    expect(kept(root, 'apply')).toBe(NOTHING);
  });
});

describe('the built command', () => {
  it('answers a second apply before loading the command line, and writes once something changed', async () => {
    const { root, repo } = await appliedProject();
    const bin = resolve(import.meta.dirname, '../../dist/cli/bin.cjs');
    const cache = tempDir('pantograph-apply-memo-cache-');
    const apply = () =>
      spawnSync(process.execPath, [bin, 'apply'], {
        cwd: root,
        encoding: 'utf8',
        env: { ...process.env, PANTOGRAPH_CACHE_DIR: cache },
      });
    await new Promise((done) => setTimeout(done, SETTLE_MS + 100));
    expect(apply().stdout).toBe(NOTHING);
    expect(readdirSync(join(cache, 'answers'))).toHaveLength(1);
    const second = apply();
    expect({ code: second.status, stdout: second.stdout, stderr: second.stderr }).toEqual({
      code: 0,
      stdout: NOTHING,
      stderr: '',
    });
    writeFileSync(join(repo, 't', 'files', 'conf', 'app.conf'), 'plain = false\n');
    const third = apply();
    expect(third.status, third.stderr).toBe(0);
    expect(readFileSync(join(root, 'conf', 'app.conf'), 'utf8')).toBe('plain = false\n');
  });
});
