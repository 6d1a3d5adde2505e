/**
 * `pantograph completion bash|zsh`: the script the built command prints, sourced in a real bash and a real
 * zsh, answers a Tab as the user expects: commands, subcommands, each command's options and the global
 * ones, a value's choices; a file argument is left to the shell's own file completion.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Command, Option } from 'commander';
import { beforeAll, describe, expect, it } from 'vitest';
import { completionScript } from '../../src/cli/completion.js';

const bin = resolve(import.meta.dirname, '../../dist/cli/bin.cjs');
const dir = mkdtempSync(join(tmpdir(), 'pantograph-completion-'));

function script(shell: string) {
  return spawnSync(process.execPath, [bin, 'completion', shell], { encoding: 'utf8' });
}

/**
 * The words offered for each command line (its last word is the one being completed), as bash's
 * programmable completion calls the function: COMP_WORDS and COMP_CWORD set, COMPREPLY read.
 */
function bashOffers(lines: readonly string[][]): string[][] {
  const calls = lines.map(
    (words) =>
      `COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _pantograph; echo "\${COMPREPLY[*]}"`,
  );
  const r = spawnSync(
    'bash',
    ['--norc', '-c', [`source ${join(dir, 'pantograph.bash')}`, ...calls].join('\n')],
    {
      encoding: 'utf8',
    },
  );
  expect(r.stderr).toBe('');
  return r.stdout
    .split('\n')
    .slice(0, lines.length)
    .map((line) => line.split(' ').filter(Boolean));
}

beforeAll(() => {
  const bash = script('bash');
  expect(bash.status).toBe(0);
  writeFileSync(join(dir, 'pantograph.bash'), bash.stdout);
  writeFileSync(join(dir, 'pantograph.zsh'), script('zsh').stdout);
});

describe('pantograph completion bash', () => {
  it('completes commands, then subcommands, from what is typed', () => {
    expect(
      bashOffers([
        ['pantograph', 'ep'],
        ['pantograph', 'fleet', 'st'],
        ['pantograph', 'new', 'de'],
        ['pantograph', 'epp', ''],
      ]),
    ).toEqual([['epp'], ['status'], ['defined_type'], ['render', 'validate', 'dump']]);
  });

  it("a command's own options and the global ones; a global flag's value is not taken for a command", () => {
    const [shard, status, top] = bashOffers([
      ['pantograph', 'fleet', 'status', '--sh'],
      ['pantograph', '-C', 'status', 'st'],
      ['pantograph', '--'],
    ]);
    expect(shard).toEqual(['--shard']);
    // `status` after -C is the directory -C names, so `st` is still a command.
    expect(status).toEqual(['status']);
    expect(top).toEqual(expect.arrayContaining(['--dir', '--format', '--quiet', '--help', '--version']));
    expect(top).not.toContain('--shard');
    const [statusFlags] = bashOffers([['pantograph', 'status', '--']]);
    expect(statusFlags).toEqual(expect.arrayContaining(['--check', '--diff', '--dir', '--format', '--help']));
    expect(statusFlags!.filter((f) => f === '--help')).toHaveLength(1);
  });

  it("a value's choices complete; any other value (a path) is left to the shell's file completion", () => {
    expect(
      bashOffers([
        ['pantograph', 'status', '--format', 'j'],
        ['pantograph', 'epp', 'render', '--values-file', ''],
      ]),
    ).toEqual([['json'], []]);
    const registered = spawnSync(
      'bash',
      ['--norc', '-c', `source ${join(dir, 'pantograph.bash')}; complete -p pantograph`],
      {
        encoding: 'utf8',
      },
    );
    // `-o default`: with no word of ours to offer, bash completes file names.
    expect(registered.stdout.trim()).toBe('complete -o default -F _pantograph pantograph');
  });

  it('hidden options (modulesync spellings) are not offered', () => {
    const [flags] = bashOffers([['pantograph', 'fleet', 'update', '--pr']]);
    expect(flags).not.toContain('--pr_title');
  });

  it('an unknown shell is refused with the choices, and nothing is printed on standard output', () => {
    const r = script('fish');
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(
      "error: command-argument value 'fish' is invalid for argument 'shell'. Allowed choices are bash, zsh.",
    );
    expect(r.stdout).toBe('');
  });
});

describe('the script of any command line', () => {
  it("a quote in a choice does not break the script (`'` would end its quoted text)", () => {
    const program = new Command('tool');
    program.command('run').addOption(new Option('--mode <m>', 'a mode').choices(["it's", 'plain']));
    const file = join(dir, 'tool.bash');
    writeFileSync(file, completionScript(program, 'bash'));
    const r = spawnSync(
      'bash',
      [
        '--norc',
        '-c',
        `source ${file}; COMP_WORDS=(tool run --mode ''); COMP_CWORD=3; _tool; printf '%s\\n' "\${COMPREPLY[@]}"`,
      ],
      { encoding: 'utf8' },
    );
    expect(r.stderr).toBe('');
    // bash's `compgen -W` removes quotes from its word list, as it does for any completion script.
    expect(r.stdout).toBe('its\nplain\n');
  });
});

describe('pantograph completion zsh', () => {
  it("registers through zsh's bash completion layer and offers the same words", () => {
    // zsh's own completion filters the offers by what is typed (compadd): the function gives them all.
    const r = spawnSync(
      'zsh',
      [
        '-f',
        '-c',
        [
          `source ${join(dir, 'pantograph.zsh')}`,
          'print -r -- "$_comps[pantograph]"',
          'offer() { emulate -L sh; setopt kshglob noshglob braceexpand; COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _pantograph; echo "${COMPREPLY[*]}"; }',
          'offer pantograph fleet status --',
          'offer pantograph status --format ""',
        ].join('\n'),
      ],
      { encoding: 'utf8' },
    );
    expect(r.stderr).toBe('');
    const [registered, fleetFlags, formats] = r.stdout.split('\n');
    expect(registered).toBe('_bash_complete -o default -F _pantograph');
    expect(fleetFlags!.split(' ')).toEqual(expect.arrayContaining(['--shard', '--jobs', '--dir', '--help']));
    expect(formats).toBe('text json');
  });
});
