/**
 * Security review qa20, item 2: a template's output names are compared with the reserved ones the way
 * file systems compare names. On macOS and Windows `.SYNC.YML` is the project's `.sync.yml` (whose `post`
 * commands run on the next apply), `.Pantograph.Lock` its lock; on HFS+ `.g<U+200C>it/hooks/pre-commit`
 * is `.git/hooks/pre-commit`; on NTFS `.git.` and `GIT~1` are `.git`. Linux, where these tests run,
 * tells them apart, so the tests check what Pantograph decides: each is refused with the template, the
 * file and why, and nothing is written. A lock naming one (committed by someone else) is refused too,
 * before `apply` purges or `remove` deletes what it names.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { syncYml } from '../apply-cli/fixtures.js';
import { run, templates } from '../cli/cli-helpers.js';
import { snapshotDir, tempTree } from '../helpers/fs.js';
import { tempRemote, useFreshGitCache } from '../helpers/git.js';

useFreshGitCache();

const ZWNJ = '\u200c';

/** A template `evil` whose other files are the given ones, beside an ordinary `README.md`. */
const evil = (files: Record<string, string>) =>
  templates('', {
    evil: {
      'template.json': { version: '1.0.0', always_apply: true },
      'files/README.md': 'hello\n',
      ...files,
    },
  });

const gitProject = (url: string) =>
  tempTree({
    'metadata.json': '{"name": "acme-demo", "version": "0.1.0"}',
    '.sync.yml': `pdk_template:\n  version: 2\n  template_sources:\n    - { type: git, location: "${url}" }\n`,
  });

interface JsonProblem {
  readonly code: string;
  readonly message: string;
  readonly file: string;
  readonly line: number;
  readonly column: number;
}

describe('a git template whose file names are reserved ones in another spelling', () => {
  it('is refused, naming the template, each file and why; nothing is written', async () => {
    const remote = tempRemote();
    remote.commit(
      evil({
        'files/.SYNC.YML': 'pdk_template:\n  version: 2\n  post: [{ "*": "touch PWNED" }]\n',
        'files/.Pantograph.Lock': '{}\n',
        [`files/.g${ZWNJ}it/hooks/pre-commit`]: '#!/bin/sh\ntouch PWNED\n',
        'files/.pantograph.lock.pending.epp': '{}\n',
        'files/lib/Gemfile.PANTOGRAPH-NEW': 'x\n',
      }),
    );
    const root = gitProject(remote.url);
    const before = snapshotDir(root);

    for (const command of ['status', 'apply', 'validate']) {
      const r = await run(root, command);
      expect(r.code, command).toBe(1);
      const messages = r.stderr.split('\n').filter((l) => l.includes('[TEMPLATE_RESERVED_PATH]'));
      expect(messages.map((l) => l.replace(/^.*\/evil\/files\//, '<evil>/files/'))).toEqual([
        `<evil>/files/.Pantograph.Lock:1:1: error: template 'evil': files/.Pantograph.Lock would write .Pantograph.Lock, which Pantograph never writes: ".Pantograph.Lock" is .pantograph.lock on macOS and Windows (which compare names without case) [TEMPLATE_RESERVED_PATH]`,
        `<evil>/files/.SYNC.YML:1:1: error: template 'evil': files/.SYNC.YML would write .SYNC.YML, which Pantograph never writes: ".SYNC.YML" is .sync.yml on macOS and Windows (which compare names without case) [TEMPLATE_RESERVED_PATH]`,
        `<evil>/files/.g${ZWNJ}it/hooks/pre-commit:1:1: error: template 'evil': "files/.g\\u200cit/hooks/pre-commit" would write ".g\\u200cit/hooks/pre-commit", which Pantograph never writes: ".g\\u200cit" is .git on macOS HFS+ (which ignores U+200C in names) [TEMPLATE_RESERVED_PATH]`,
        `<evil>/files/.pantograph.lock.pending.epp:1:1: error: template 'evil': files/.pantograph.lock.pending.epp would write .pantograph.lock.pending, which Pantograph never writes [TEMPLATE_RESERVED_PATH]`,
        `<evil>/files/lib/Gemfile.PANTOGRAPH-NEW:1:1: error: template 'evil': files/lib/Gemfile.PANTOGRAPH-NEW would write lib/Gemfile.PANTOGRAPH-NEW, which Pantograph never writes: "Gemfile.PANTOGRAPH-NEW" is Gemfile.pantograph-new on macOS and Windows (which compare names without case) [TEMPLATE_RESERVED_PATH]`,
      ]);
      expect(r.stderr).toContain('hint: templates never write `.git/**`, `.sync.yml`');
    }
    const json = await run(root, 'apply', '--format', 'json');
    expect(json.code).toBe(1);
    const problems = (JSON.parse(json.stdout) as { problems: JsonProblem[] }).problems;
    expect(problems.filter((p) => p.code === 'TEMPLATE_RESERVED_PATH')).toHaveLength(5);
    expect(problems.find((p) => p.file.endsWith('/evil/files/.SYNC.YML'))).toMatchObject({
      message: expect.stringContaining('".SYNC.YML" is .sync.yml on macOS and Windows'),
      line: 1,
      column: 1,
    });
    // Not even the ordinary README.md, nor a lock.
    expect(snapshotDir(root)).toEqual(before);
  });
});

describe('a filesystem template with names NTFS reads as .git', () => {
  it.each([
    ['.git.', '".git." is .git on Windows (which drops trailing dots and spaces)'],
    ['GIT~1', '"GIT~1" is .git on Windows NTFS (as its 8.3 short name)'],
    ['.git::$INDEX_ALLOCATION', 'names a stream of a file'],
  ])('%s/hooks/pre-commit is refused', async (name, why) => {
    // git itself refuses to commit these (core.protectNTFS), so the template is a directory, untrusted.
    const repo = tempTree(evil({ [`files/sub/${name}/hooks/pre-commit`]: '#!/bin/sh\n' }));
    const root = tempTree({
      '.sync.yml': `pdk_template:\n  version: 2\n  template_sources:\n    - { type: filesystem, location: ${repo}, trusted: false }\n`,
    });
    const before = snapshotDir(root);
    const r = await run(root, 'apply');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`error: template 'evil': files/sub/${name}/hooks/pre-commit would write`);
    expect(r.stderr).toContain(why);
    expect(snapshotDir(root)).toEqual(before);
  });
});

describe('a lock naming a reserved file in another spelling', () => {
  /** An applied project whose lock's entry for `extra/extra.txt` is renamed `name` (a file that exists). */
  async function lockNaming(name: string, more = ''): Promise<{ root: string; lockText: string }> {
    const repo = tempTree(
      templates('', { extra: { 'template.json': { version: '1.0.0' }, 'files/extra/extra.txt': 'extra\n' } }),
    );
    const root = tempTree({ '.sync.yml': syncYml(repo, more, '[extra]') });
    expect((await run(root, 'apply')).code).toBe(0);
    const lockPath = join(root, '.pantograph.lock');
    const lockText = readFileSync(lockPath, 'utf8').replace('"extra/extra.txt"', JSON.stringify(name));
    writeFileSync(lockPath, lockText);
    writeFileSync(join(root, name), readFileSync(join(root, 'extra/extra.txt')));
    // The template no longer produces the file: with `purge`, apply would remove what the lock names.
    writeFileSync(join(root, '.sync.yml'), syncYml(repo, more, '[]'));
    return { root, lockText };
  }

  it.each([
    ['apply'],
    ['status'],
    ['remove'],
  ])('`%s` refuses it at its place in the lock, and removes nothing', async (command) => {
    const { root, lockText } = await lockNaming('.SYNC.YML', '  purge: true\n');
    const before = snapshotDir(root);
    const r = await run(root, command);
    expect(r.code).toBe(1);
    const line = lockText.split('\n').findIndex((l) => l.includes('".SYNC.YML"')) + 1;
    expect(r.stderr).toContain(
      `.pantograph.lock:${line}:5: error: .pantograph.lock is not a valid Pantograph lock file: file ".SYNC.YML" is reserved: ".SYNC.YML" is .sync.yml on macOS and Windows (which compare names without case) [SYNC_LOCK_INVALID]`,
    );
    expect(existsSync(join(root, '.SYNC.YML'))).toBe(true);
    expect(snapshotDir(root)).toEqual(before);
  });
});
