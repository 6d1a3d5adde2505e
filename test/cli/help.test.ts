/**
 * A command's `--help` is what a new user reads first: it lists the global options too (`-C`, `--format`,
 * `--no-color`, `-q`), which are written after the command as well, and each of them is in the README's
 * "Commands". Run with the built command, as a user runs it.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from '../helpers/fs.js';

afterEach(() => removeTempDirs());

const bin = resolve(import.meta.dirname, '../../dist/cli/bin.cjs');
const README = readFileSync(resolve(import.meta.dirname, '../../README.md'), 'utf8');

function help(...command: string[]): string {
  const r = spawnSync(process.execPath, [bin, ...command, '--help'], { encoding: 'utf8' });
  expect(r.status).toBe(0);
  return r.stdout;
}

const GLOBAL = ['-C, --dir <dir>', '--format <format>', '--no-color', '-q, --quiet'];

describe('--help of a command', () => {
  it.each([
    [['status']],
    [['apply']],
    [['epp', 'validate']],
    [['fleet', 'status']],
    [['new', 'class']],
  ])('%j lists the global options after its own', (command) => {
    const text = help(...command);
    const [own, global] = text.split('\nGlobal Options:\n');
    expect(global, 'a Global Options section').toBeDefined();
    for (const option of GLOBAL) expect(global).toContain(option);
    expect(own).toContain('-h, --help');
  });

  it("the README's Commands gives each global option", () => {
    const commands = README.slice(README.indexOf('## Commands'), README.indexOf('### For template users'));
    for (const option of ['`-C DIR`', '`--format json`', '`--no-color`', '`-q`', '`--quiet`']) {
      expect(commands).toContain(option);
    }
  });

  it('a global option given after the command works as its help says', () => {
    const r = spawnSync(process.execPath, [bin, 'status', '--format', 'json'], {
      cwd: tempDir(),
      encoding: 'utf8',
    });
    expect(r.status).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ problems: [{ code: 'SYNC_NOT_FOUND' }] });
  });

  it('epp render names every kind of values file it reads; epp validate takes directories', () => {
    expect(help('epp', 'render')).toMatch(/--values-file <file> +values from a \.json, \.yaml or \.pp/);
    expect(help('epp', 'validate')).toMatch(/files +template files, or directories/);
  });
});

describe("a command's option written before the command", () => {
  it.each([
    [
      ['--offline', 'status'],
      '--offline is an option of `pantograph status`: write it after the command (`pantograph status --offline`)',
    ],
    [
      ['-C', '.', '--check', 'status'],
      '--check is an option of `pantograph status`: write it after the command (`pantograph status --check`)',
    ],
    [
      ['--trust', 'fleet', 'status'],
      '--trust is an option of `pantograph fleet status`: write it after the command (`pantograph fleet status --trust`)',
    ],
    // An option that takes a value: the word after it is its value, not the command.
    [
      ['--values', 'v.yaml', 'epp', 'render', 't.epp'],
      '--values is an option of `pantograph epp render`: write it after the command (`pantograph epp render --values v.yaml`)',
    ],
    [
      ['epp', '--values', 'v.yaml', 'render', 't.epp'],
      '--values is an option of `pantograph epp render`: write it after the command (`pantograph epp render --values v.yaml`)',
    ],
    [
      ['--values=v.yaml', 'epp', 'render', 't.epp'],
      '--values is an option of `pantograph epp render`: write it after the command (`pantograph epp render --values=v.yaml`)',
    ],
    [
      ['-o', 'out', 'render'],
      '-o is an option of `pantograph render`: write it after the command (`pantograph render -o out`)',
    ],
  ])('%j: says whose option it is and where it goes; exit 1, nothing written', (args, hint) => {
    const cwd = tempDir();
    const r = spawnSync(process.execPath, [bin, ...args], { cwd, encoding: 'utf8' });
    const option = args.find((a) => a.startsWith(hint.split(' ')[0]!));
    expect(r.stderr.startsWith(`error: unknown option '${option}'\n`)).toBe(true);
    expect(r.stderr.endsWith(`hint: ${hint}\n`)).toBe(true);
    expect(r.status).toBe(1);
    expect(readdirSync(cwd)).toEqual([]);
  });

  it.each([
    [['apply', '--dry-run'], 'pantograph apply --noop'],
    [['remove', '--dry-run'], 'pantograph remove --noop'],
    [['fleet', 'apply', '--dry-run'], 'pantograph fleet apply --noop'],
  ])("%j: another tool's --dry-run is named as ours, --noop; exit 1, nothing written", (args, usage) => {
    const cwd = tempDir();
    const r = spawnSync(process.execPath, [bin, ...args], { cwd, encoding: 'utf8' });
    expect(r.stderr.startsWith("error: unknown option '--dry-run'\n")).toBe(true);
    expect(
      r.stderr.endsWith(
        `hint: --dry-run is called --noop here, as in Puppet and modulesync (\`${usage}\`)\n`,
      ),
    ).toBe(true);
    expect(r.status).toBe(1);
    expect(readdirSync(cwd)).toEqual([]);
  });

  it('an option no command has gets no such hint', () => {
    const r = spawnSync(process.execPath, [bin, '--nosuch', 'status'], { cwd: tempDir(), encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("error: unknown option '--nosuch'");
    expect(r.stderr).not.toContain('hint:');
    // `status` has no --noop (it writes nothing anyway): no --dry-run hint either.
    const status = spawnSync(process.execPath, [bin, 'status', '--dry-run'], {
      cwd: tempDir(),
      encoding: 'utf8',
    });
    expect(status.stderr).not.toContain('hint:');
  });
});
