/**
 * Issue 11, item 1: an error about a file Pantograph refused to read never shows that file's content. A
 * hostile template links `files/env` to /proc/self/environ (every environment variable: CI tokens) and
 * `files/creds` to a credentials file outside its repository; `status`, `validate` and `render` refuse
 * both, and nothing they print (code frames included) holds a byte of either.
 */
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { syncYml } from '../apply-cli/fixtures.js';
import { templates } from '../cli/cli-helpers.js';
import { removeTempDirs, tempDir, tempTree, writeTree } from '../helpers/fs.js';

const bin = resolve(import.meta.dirname, '../../dist/cli/bin.cjs');
const TOKEN = 'ghp_SECRET_TOKEN_0123456789';
const CREDENTIAL = `https://ci:${TOKEN}@git.example.com/org/repo.git`;

afterAll(removeTempDirs);

function hostileProject(): string {
  const outside = tempTree({ 'credentials.txt': `${CREDENTIAL}\nsecond line ${TOKEN}\n` });
  const repo = tempTree({
    ...templates('', { evil: { 'template.json': { always_apply: true }, 'files/README.md': 'harmless\n' } }),
    '/evil/files/env': { symlink: '/proc/self/environ' },
    '/evil/files/creds': { symlink: `${outside}/credentials.txt` },
  });
  return writeTree(tempDir(), { '.sync.yml': syncYml(repo) });
}

describe('a template linking to files outside its repository', () => {
  const project = hostileProject();

  it.each([
    ['status'],
    ['validate'],
    ['render'],
    ['apply', '--noop'],
    ['status', '--format', 'json'],
  ])('`%s` refuses the links and prints nothing of their targets', (...args) => {
    const run = spawnSync(process.execPath, [bin, ...args], {
      cwd: project,
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1', CI_DEPLOY_TOKEN: TOKEN },
    });
    const output = run.stdout + run.stderr;
    expect(run.status).toBe(1);
    expect(output).toContain('TEMPLATE_SYMLINK');
    expect(output).toContain('points outside the template repository');
    expect(output).not.toContain(TOKEN);
    expect(output).not.toContain('CI_DEPLOY_TOKEN');
    expect(output).not.toContain('PATH=');
  });
});
