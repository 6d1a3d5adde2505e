/**
 * A git source whose URL holds a token (`https://bot:<token>@host/tpl.git`): nothing Pantograph prints,
 * records or renders holds the token. git reaches a real local repository through that URL by
 * `url.<repository>.insteadOf`, given in the environment as CI gives git its configuration.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { resetGitFetches } from '../../src/engine/sources/index.js';
import { run } from '../cli/cli-helpers.js';
import { tempTree } from '../helpers/fs.js';
import { tempRemote, useFreshGitCache } from '../helpers/git.js';
import { lockText, read } from './fixtures.js';

useFreshGitCache();

const TOKEN = 'ghp_SECRET0123456789';
const NEW_TOKEN = 'ghp_ROTATED987654321';
const IDENTITY = 'https://git.example.com/tpl.git';
const withToken = (token: string, host = 'git.example.com') => `https://bot:${token}@${host}/tpl.git`;

/** A template `t` whose file shows `$template['source']`. */
const TEMPLATES = {
  't/template.json': JSON.stringify({ name: 't', version: '1.0.0', always_apply: true }),
  't/files/source.txt.epp': "from <%= $template['source'] %>\n",
};

const sync = (location: string) => `pdk_template:
  version: 2
  template_sources:
    - type: git
      location: ${location}
      ref: main
  templates: []
`;

/** The same on one line: a code frame of the source shows its URL. */
const syncFlow = (location: string) => `pdk_template:
  version: 2
  template_sources:
    - { type: git, location: "${location}", ref: main }
  templates: []
`;

/** git rewrites each URL to the directory it stands for, for this test's commands (restored after it). */
function reachThrough(urls: Record<string, string>): void {
  const pairs = Object.entries(urls);
  vi.stubEnv('GIT_CONFIG_COUNT', String(pairs.length));
  pairs.forEach(([url, dir], i) => {
    vi.stubEnv(`GIT_CONFIG_KEY_${i}`, `url.${dir}.insteadOf`);
    vi.stubEnv(`GIT_CONFIG_VALUE_${i}`, url);
  });
}

/** A new run of the CLI: git sources are fetched at most once per process. */
const again = (root: string, ...args: string[]) => {
  resetGitFetches();
  return run(root, ...args);
};

/** A project applied from a remote reached through `withToken(TOKEN)`. */
async function appliedProject() {
  const remote = tempRemote();
  const commit = remote.commit(TEMPLATES);
  reachThrough({ [withToken(TOKEN)]: remote.bare });
  const root = tempTree({ '.sync.yml': sync(withToken(TOKEN)) });
  const applied = await run(root, 'apply');
  expect(applied.code).toBe(0);
  return { remote, commit, root, applied };
}

describe('a token in a git source URL', () => {
  it('is in neither the lock, nor a rendered file, nor any output of list, show, status, update and apply', async () => {
    const { root, applied, commit } = await appliedProject();
    expect(lockText(root)).toContain(`"location": "${IDENTITY}"`);
    expect(lockText(root)).toContain(commit);
    expect(read(root, 'source.txt')).toBe(`from ${IDENTITY}\n`);

    const outputs = [applied];
    for (const args of [
      ['list'],
      ['show', 't'],
      ['status'],
      ['status', '--all'],
      ['apply'],
      ['update'],
      ['validate'],
    ]) {
      const text = await again(root, ...args);
      const json = await again(root, ...args, '--format', 'json');
      expect([text.code, json.code]).toEqual([0, 0]);
      outputs.push(text, json);
    }
    for (const output of outputs) {
      expect(output.stdout + output.stderr).not.toContain(TOKEN);
      expect(output.stdout + output.stderr).not.toContain('ghp_');
    }
    // Reports name the source by its identity.
    const [list, show, update] = await Promise.all([
      again(root, 'list'),
      again(root, 'show', 't', '--format', 'json'),
      again(root, 'update', '--format', 'json'),
    ]);
    expect(list.stdout).toContain(`${IDENTITY}#main`);
    expect(JSON.parse(show.stdout).source.location).toBe(IDENTITY);
    expect(JSON.parse(update.stdout).sources).toEqual([
      { location: IDENTITY, ref: 'main', from: commit, to: commit },
    ]);
  });

  it('of an unreachable remote is masked in the error, in text and JSON', async () => {
    const root = tempTree({ '.sync.yml': syncFlow(withToken(TOKEN, '127.0.0.1:1')) });
    const text = await run(root, 'status');
    expect(text.code).toBe(1);
    expect(text.stderr).toContain(
      "error: git source 'https://bot:***@127.0.0.1:1/tpl.git' cannot be fetched from https://bot:***@127.0.0.1:1/tpl.git:",
    );
    // The code frame shows the line of .sync.yml that holds the token: masked too.
    expect(text.stderr).toContain(
      '> 4 |     - { type: git, location: "https://bot:***@127.0.0.1:1/tpl.git", ref: main }\n    |       ^\n',
    );
    const json = await again(root, 'apply', '--format', 'json');
    expect(json.code).toBe(1);
    const [problem, warning] = JSON.parse(json.stdout).problems;
    expect(problem).toMatchObject({ code: 'GIT_UNREACHABLE', line: 4, column: 7 });
    expect(problem.message).toContain("git source 'https://bot:***@127.0.0.1:1/tpl.git'");
    // The warning about the token in .sync.yml goes with the error: it is about the file, fetched or not.
    expect(warning).toMatchObject({ severity: 'warning', code: 'SOURCE_CREDENTIALS_IN_FILE', line: 4 });
    expect(text.stderr).toContain('[SOURCE_CREDENTIALS_IN_FILE]');
    for (const output of [text, json]) expect(output.stdout + output.stderr).not.toContain(TOKEN);
  });

  it('may rotate: the same URL with a new token neither fetches nor changes the lock or any file', async () => {
    const { remote, root } = await appliedProject();
    const lock = lockText(root);
    remote.commit({ 't/files/source.txt.epp': 'moved on\n' }); // a fetch would see this commit
    // The new token's URL reaches nothing: a fetch would fail.
    reachThrough({ [withToken(NEW_TOKEN)]: '/nonexistent/templates.git' });
    writeFileSync(join(root, '.sync.yml'), sync(withToken(NEW_TOKEN)));
    expect(await again(root, 'apply')).toMatchObject({ code: 0, stdout: 'Nothing to change\n' });
    expect(await again(root, 'status', '--check')).toMatchObject({ code: 0 });
    expect(lockText(root)).toBe(lock);
    expect(read(root, 'source.txt')).toBe(`from ${IDENTITY}\n`);
  });

  it('in a lock an older version wrote is read as the same source, and the next apply writes the lock clean', async () => {
    const { root, commit } = await appliedProject();
    const clean = lockText(root);
    const old = clean.replace(`"location": "${IDENTITY}"`, `"location": "${withToken(TOKEN)}"`);
    expect(old).not.toBe(clean);
    writeFileSync(join(root, '.pantograph.lock'), old);

    // Same source: its locked commit is kept (update says the source did not move), nothing drifts.
    expect(await again(root, 'status', '--check')).toMatchObject({ code: 0 });
    const noop = await again(root, 'update', '--noop');
    expect(noop.stdout).toContain(`source ${IDENTITY}#main: already at ${commit.slice(0, 12)}\n`);
    expect(readFileSync(join(root, '.pantograph.lock'), 'utf8')).toBe(old);

    expect(await again(root, 'apply')).toMatchObject({
      code: 0,
      stdout: 'No file to change; .pantograph.lock brought up to date\n',
    });
    expect(lockText(root)).toBe(clean);
  });

  it('is a warning where .sync.yml holds it, once, with what to do instead', async () => {
    const { root } = await appliedProject();
    const validate = await again(root, 'validate', '--format', 'json');
    const warnings = JSON.parse(validate.stdout).problems.filter(
      (p: { code: string }) => p.code === 'SOURCE_CREDENTIALS_IN_FILE',
    );
    expect(warnings).toEqual([
      {
        severity: 'warning',
        code: 'SOURCE_CREDENTIALS_IN_FILE',
        message:
          'this URL holds a password or token: committed with .sync.yml, it is readable by anyone who can read the repository',
        file: join(root, '.sync.yml'),
        line: 5,
        column: 17,
        hint: `write it as ${IDENTITY} and give git the credentials where Pantograph runs: a credential helper (git config credential.helper), or git config url."<URL with the token>".insteadOf https://git.example.com/ (in CI: GIT_CONFIG_COUNT=1, GIT_CONFIG_KEY_0 and GIT_CONFIG_VALUE_0 in the environment)`,
      },
    ]);
    const apply = await again(root, 'apply');
    expect(apply.stderr.match(/SOURCE_CREDENTIALS_IN_FILE/g)).toHaveLength(1);
    expect(apply.stderr).toContain(
      [
        '.sync.yml:5:17: warning: this URL holds a password or token: committed with .sync.yml, it is readable by anyone who can read the repository [SOURCE_CREDENTIALS_IN_FILE]',
        '  3 |   template_sources:',
        '  4 |     - type: git',
        '> 5 |       location: https://bot:***@git.example.com/tpl.git',
        '    |                 ^',
      ].join('\n'),
    );
  });

  it('given to `add source` is written as given, warned about there, and named without it', async () => {
    const remote = tempRemote();
    remote.commit(TEMPLATES);
    reachThrough({ [withToken(TOKEN)]: remote.bare, [withToken(NEW_TOKEN)]: remote.bare });
    const root = tempTree({ '.sync.yml': 'pdk_template:\n  version: 2\n' });
    const added = await run(root, 'add', 'source', 'git', `location=${withToken(TOKEN)}`, 'ref=main');
    expect(added.code).toBe(0);
    expect(added.stdout).toBe(`added source ${IDENTITY}#main (git) to .sync.yml\n`);
    expect(added.stderr).toMatch(/^\.sync\.yml:5:17: warning: .*\[SOURCE_CREDENTIALS_IN_FILE\]\n/);
    expect(added.stderr).not.toContain(TOKEN);
    // The same repository with another token is the source already listed.
    const twice = await again(root, 'add', 'source', 'git', `location=${withToken(NEW_TOKEN)}`, 'ref=main');
    expect(twice).toMatchObject({
      code: 0,
      stdout: `source ${IDENTITY}#main is already listed in .sync.yml; nothing to do\n`,
    });
  });

  it('is no warning without a secret: a plain URL, a user name, ssh and scp-like forms', async () => {
    for (const location of [
      IDENTITY,
      'https://alice@git.example.com/tpl.git',
      'ssh://git@git.example.com/tpl.git',
      'git@git.example.com:acme/tpl.git',
    ]) {
      const root = tempTree({ '.sync.yml': sync(location) });
      const r = await again(root, 'validate', '--offline', '--format', 'json');
      expect(r.stdout + r.stderr).not.toContain('SOURCE_CREDENTIALS_IN_FILE');
    }
  });
});

/**
 * Security review qa20, item 8: a token in the query (`?private_token=`, `?access_token=`) was printed in
 * messages, recorded in the lock and rendered into `$template['source']`, with no warning; a password
 * holding a `/` (a URL git rejects) was printed whole.
 */
describe('a token in a git source URL query, or a password git rejects', () => {
  const QUERY_TOKEN = 'SeKrEtQuErY3';
  const withQueryToken = (host = 'git.example.com') => `https://${host}/tpl.git?private_token=${QUERY_TOKEN}`;

  it('is in neither the lock, nor a rendered file, nor any output, and is warned about where .sync.yml holds it', async () => {
    const remote = tempRemote();
    const commit = remote.commit(TEMPLATES);
    reachThrough({ [withQueryToken()]: remote.bare });
    const root = tempTree({ '.sync.yml': sync(withQueryToken()) });
    const applied = await run(root, 'apply');
    expect(applied.code).toBe(0);
    expect(lockText(root)).toContain(`"location": "${IDENTITY}"`);
    expect(lockText(root)).toContain(commit);
    expect(lockText(root)).not.toContain(QUERY_TOKEN);
    expect(read(root, 'source.txt')).toBe(`from ${IDENTITY}\n`);
    expect(applied.stderr).toContain(
      '.sync.yml:5:17: warning: this URL holds a password or token: committed with .sync.yml, it is readable by anyone who can read the repository [SOURCE_CREDENTIALS_IN_FILE]',
    );
    expect(applied.stderr).toContain(
      '> 5 |       location: https://git.example.com/tpl.git?private_token=***\n',
    );
    expect(applied.stderr).toContain(`hint: write it as ${IDENTITY} and give git the credentials`);

    const outputs = [applied];
    for (const args of [['list'], ['show', 't'], ['status', '--all'], ['apply'], ['update'], ['validate']]) {
      outputs.push(await again(root, ...args), await again(root, ...args, '--format', 'json'));
    }
    for (const output of outputs) {
      expect(output.code).toBe(0);
      expect(output.stdout + output.stderr).not.toContain(QUERY_TOKEN);
    }
    const validate = JSON.parse(outputs.at(-1)!.stdout) as { problems: { code: string; line: number }[] };
    expect(validate.problems).toEqual([
      expect.objectContaining({ code: 'SOURCE_CREDENTIALS_IN_FILE', line: 5, column: 17 }),
    ]);
  });

  it.each([
    ['https://127.0.0.1:1/tpl.git?private_token=***', withQueryToken('127.0.0.1:1'), QUERY_TOKEN],
    ['https://bot:***@127.0.0.1:1/tpl.git', 'https://bot:SeKr/Et2@127.0.0.1:1/tpl.git', 'SeKr/Et2'],
  ])('of an unreachable remote is masked in the error, in text and JSON: %s', async (masked, location, secret) => {
    const root = tempTree({ '.sync.yml': syncFlow(location) });
    const text = await run(root, 'status');
    expect(text.code).toBe(1);
    expect(text.stderr).toContain(`error: git source '${masked}' cannot be fetched from ${masked}:`);
    expect(text.stderr).toContain(`> 4 |     - { type: git, location: "${masked}", ref: main }\n`);
    expect(text.stderr).toContain('[SOURCE_CREDENTIALS_IN_FILE]');
    const json = await again(root, 'status', '--format', 'json');
    expect(json.code).toBe(1);
    const problems = JSON.parse(json.stdout).problems as { code: string; message: string; hint?: string }[];
    expect(problems.map((p) => p.code)).toEqual(['GIT_UNREACHABLE', 'SOURCE_CREDENTIALS_IN_FILE']);
    expect(problems[0]!.message).toContain(`git source '${masked}'`);
    for (const output of [text, json]) expect(output.stdout + output.stderr).not.toContain(secret);
  });
});
