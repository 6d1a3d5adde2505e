/**
 * Options `--help` shows are in the README's command reference, each with an example that works as
 * written: `convert --source` and `fleet import-modulesync --force` (the built command, as a user runs it).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { removeTempDirs, tempTree } from '../helpers/fs.js';

afterEach(() => removeTempDirs());

const README = readFileSync(resolve(import.meta.dirname, '../../README.md'), 'utf8');
const bin = resolve(import.meta.dirname, '../../dist/cli/bin.cjs');

function pantograph(cwd: string, ...args: string[]) {
  const r = spawnSync(process.execPath, [bin, ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/**
 * The long options `--help` lists for a command, but for help and those the README gives as global (the
 * program's own, under "Global Options:", are checked in test/cli/help.test.ts).
 */
function optionsOf(...command: string[]): string[] {
  const help = pantograph(process.cwd(), ...command, '--help').stdout.split('\nGlobal Options:')[0]!;
  const global = ['--help', '--offline', '--trust'];
  return [...help.matchAll(/^\s+(?:-\w, )?(--[\w-]+)/gm)]
    .map((m) => m[1]!)
    .filter((o) => !global.includes(o));
}

/** The README's example lines of a command (`pantograph <command> ...` in its code blocks). */
function examples(command: string): string[] {
  return README.split('\n').filter((l) => l.startsWith(`pantograph ${command} `));
}

/** The README's reference of a command: its synopsis in backticks, up to the end of that paragraph. */
function reference(synopsis: string): string {
  const at = README.indexOf(synopsis);
  if (at < 0) throw new Error(`no reference for ${synopsis} in the README`);
  return README.slice(at, README.indexOf('\n\n', at));
}

describe('the README documents what --help shows', () => {
  it.each([
    [['convert'], '**`convert ', 'convert'],
    [['fleet', 'import-modulesync'], '`pantograph fleet import-modulesync [DIR]', 'fleet import-modulesync'],
  ])('%j: each option in the reference and in an example', (command, synopsis, name) => {
    const options = optionsOf(...command);
    expect(options.length).toBeGreaterThan(0);
    const text = reference(synopsis);
    for (const option of options) {
      expect(text, `${option} in the reference`).toContain(option);
      expect(
        examples(name).some((l) => l.includes(` ${option}`)),
        `an example of ${option}`,
      ).toBe(true);
    }
  });
});

describe("the README's examples work as written", () => {
  it('convert --source ../acme-templates --yes: converts to the given templates and names them in .sync.yml', () => {
    const root = tempTree({
      'acme-templates/custom/template.json': JSON.stringify({
        name: 'custom',
        v1_files: ['.custom.yml'],
        default_settings: { level: 1 },
      }),
      'module/.sync.yml': '.custom.yml:\n  level: 3\n',
    });
    const line = examples('convert').find((l) => l.includes('--source'))!;
    const args = line.split('#')[0]!.trim().split(/\s+/).slice(1);
    expect(args).toEqual(['convert', '--source', '../acme-templates', '--yes']);
    const r = pantograph(join(root, 'module'), ...args);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const sync = readFileSync(join(root, 'module/.sync.yml'), 'utf8');
    expect(sync).toContain(
      '  template_sources:\n    - type: filesystem\n      location: ../acme-templates\n    - default\n',
    );
    expect(sync).toContain('custom:\n  level: 3\n');
  });

  it('fleet import-modulesync DIR --force: replaces an existing fleet.yml, which it refuses without', () => {
    const root = tempTree({
      'modulesync_config/managed_modules.yml': '---\n- puppet-ntp\n',
      'modulesync_config/modulesync.yml': "---\nnamespace: acme\ngit_base: 'git@github.com:'\n",
      'work/fleet.yml': 'version: 1\nrepositories: []\n',
    });
    const line = examples('fleet import-modulesync').find((l) => l.includes('--force'))!;
    const args = line.split('#')[0]!.trim().split(/\s+/).slice(1);
    expect(args).toEqual(['fleet', 'import-modulesync', '../modulesync_config', '--force']);
    const cwd = join(root, 'work');
    const refused = pantograph(cwd, ...args.filter((a) => a !== '--force'));
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('pass --force to replace it');
    expect(readFileSync(join(cwd, 'fleet.yml'), 'utf8')).toBe('version: 1\nrepositories: []\n');
    const r = pantograph(cwd, ...args);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('wrote fleet.yml: 1 repository\n');
    expect(readFileSync(join(cwd, 'fleet.yml'), 'utf8')).toContain('git@github.com:acme/puppet-ntp');
  });
});
