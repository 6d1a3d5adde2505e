/**
 * The questions `init`, `apply` and `convert` ask on a terminal. Answers typed or pasted ahead are each
 * taken by their question (a reader per question dropped all but the first: `init` then stopped with
 * "Aborted with Ctrl+D"); Ctrl+C at a question stops the command, writing nothing. Run with the built
 * command on a real terminal (`script`, util-linux), as a person's shell runs it.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from '../helpers/fs.js';

afterEach(() => removeTempDirs());

const bin = resolve(import.meta.dirname, '../../dist/cli/bin.cjs');
const hasScript = spawnSync('script', ['--version']).status === 0;
const ESCAPES = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*[A-Za-z]`, 'g');

/** Runs `pantograph ARGS` on a terminal, typing `keys` after `delay` seconds; its output without escapes. */
function onTerminal(cwd: string, args: string, keys: string, delay = 1) {
  const typed = `(sleep ${delay}; printf '${keys}'; sleep 4)`;
  const command = `'${process.execPath}' '${bin}' ${args}; echo "exit $?"`;
  const r = spawnSync(
    'sh',
    ['-c', `${typed} | script -qec "${command.replace(/["$]/g, '\\$&')}" /dev/null`],
    {
      cwd,
      encoding: 'utf8',
      timeout: 30_000,
    },
  );
  return r.stdout.replace(ESCAPES, '');
}

describe.skipIf(!hasScript)('questions on a terminal', () => {
  it('init: five answers pasted at once, each taken by its question', () => {
    const cwd = tempDir();
    const out = onTerminal(cwd, 'init m', 'acme-m\\nMe\\nA summary\\nMIT\\nrubocop\\n');
    expect(out).toContain('exit 0');
    const metadata = JSON.parse(readFileSync(join(cwd, 'm/metadata.json'), 'utf8'));
    expect(metadata).toMatchObject({ name: 'acme-m', author: 'Me', summary: 'A summary', license: 'MIT' });
    expect(readFileSync(join(cwd, 'm/.sync.yml'), 'utf8')).toContain('templates: [rubocop]');
  });

  it('init: Ctrl+C at a question stops it, exit 1, nothing created', () => {
    const cwd = tempDir();
    const out = onTerminal(cwd, 'init m', '\\003');
    expect(out).toContain('error: Aborted with Ctrl+C');
    expect(out).toContain('exit 1');
    expect(existsSync(join(cwd, 'm'))).toBe(false);
  });
});
