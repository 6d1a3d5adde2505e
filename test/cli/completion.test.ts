/**
 * `pantograph completion bash|zsh|fish`: the script the built command prints, sourced in a real bash, zsh
 * and fish, answers a Tab as the user expects: commands, subcommands, each command's options and the
 * global ones, a value's choices; a file argument is left to the shell's own file completion.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
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
  const fish = script('fish');
  expect(fish.status).toBe(0);
  writeFileSync(join(dir, 'pantograph.fish'), fish.stdout);
  // A project's files, for the completions that are files.
  mkdirSync(join(dir, 'project'));
  writeFileSync(join(dir, 'project', 'values.yaml'), 'a: 1\n');
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
    const r = script('powershell');
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(
      "error: command-argument value 'powershell' is invalid for argument 'shell'. Allowed choices are bash, zsh, fish.",
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

/** A fish word in single quotes (only `\\` and `'` are escaped in one). */
const fishWord = (text: string) => `'${text.replace(/[\\']/g, '\\$&')}'`;

/**
 * What fish offers for each command line (its last word is the one being completed), asked as fish lists
 * completions itself (`complete -C`), in the project directory: each offer as [word, description].
 */
function fishOffers(file: string, lines: readonly string[]): string[][][] {
  const end = '--end of offers--';
  const r = spawnSync(
    'fish',
    [
      '--no-config',
      '-c',
      [
        `source ${fishWord(file)}`,
        ...lines.map((l) => `complete -C ${fishWord(l)}; echo ${fishWord(end)}`),
      ].join('\n'),
    ],
    // fish keeps its history and variables under these: a test's own, not the user's.
    {
      encoding: 'utf8',
      cwd: join(dir, 'project'),
      env: { ...process.env, XDG_CONFIG_HOME: dir, XDG_DATA_HOME: dir },
    },
  );
  expect(r.stderr).toBe('');
  return r.stdout
    .split(`${end}\n`)
    .slice(0, lines.length)
    .map((offers) =>
      offers
        .split('\n')
        .filter(Boolean)
        .map((offer) => offer.split('\t')),
    );
}

const offered = (lines: readonly string[]) =>
  fishOffers(join(dir, 'pantograph.fish'), lines).map((offers) => offers.map(([word]) => word!));

describe('pantograph completion fish', () => {
  it('completes commands, then subcommands, from what is typed, each with its description', () => {
    expect(offered(['pantograph ep', 'pantograph fleet st', 'pantograph new de', 'pantograph epp '])).toEqual(
      [['epp'], ['status'], ['defined_type'], ['dump', 'render', 'validate']],
    );
    const [[fleetStatus]] = fishOffers(join(dir, 'pantograph.fish'), ['pantograph fleet st']) as [string[][]];
    expect(fleetStatus).toEqual([
      'status',
      'clone or fetch every repository and report drift (exit 1 on any)',
    ]);
  });

  it("a command's own options and the global ones; a global option's value is not taken for a command", () => {
    const [shard, status, dirStatus, top, statusFlags] = fishOffers(join(dir, 'pantograph.fish'), [
      'pantograph fleet status --sh',
      'pantograph -C status st',
      'pantograph --dir=status fleet st',
      'pantograph --',
      'pantograph status --',
    ]);
    expect(shard).toEqual([['--shard', 'only shard i of n (a CI matrix job)']]);
    // `status` after -C is the directory -C names, so `st` is still a command: `status`, not `fleet status`'s.
    expect(status).toEqual([['status', expect.stringContaining('every path classified')]]);
    expect(dirStatus).toEqual([['status', expect.stringContaining('report drift')]]);
    const words = (offers: string[][] | undefined) => offers!.map(([word]) => word);
    expect(words(top)).toEqual(
      expect.arrayContaining(['--dir', '--format', '--quiet', '--help', '--version']),
    );
    expect(words(top)).not.toContain('--shard');
    expect(top).toContainEqual(['--format', 'output format']);
    expect(words(statusFlags)).toEqual(
      expect.arrayContaining(['--check', '--diff', '--dir', '--format', '--help']),
    );
    expect(words(statusFlags).filter((f) => f === '--help')).toHaveLength(1);
  });

  it("a value's choices complete; a file where a command or option takes one, none where only commands go", () => {
    expect(
      offered([
        'pantograph status --format j',
        'pantograph status --format ',
        'pantograph epp render --values-file ',
        'pantograph render ',
        'pantograph fleet ',
      ]),
    ).toEqual([
      ['json'],
      ['json', 'text'],
      ['values.yaml'],
      ['values.yaml'],
      ['apply', 'import-modulesync', 'plan-matrix', 'report', 'status', 'update'],
    ]);
    const [top] = offered(['pantograph ']);
    expect(top).toEqual(expect.arrayContaining(['epp', 'fleet', 'status', 'completion']));
    expect(top).not.toContain('values.yaml');
  });

  it('hidden options (modulesync spellings) are not offered', () => {
    const [flags] = offered(['pantograph fleet update --pr']);
    expect(flags).toEqual(expect.arrayContaining(['--pr', '--pr-title', '--pr-labels']));
    expect(flags).not.toContain('--pr_title');
  });

  it('installed as the README says, fish loads it on the first Tab; sourced through psub, the same', () => {
    // A home of the test's own (fish reads its configuration there), with `pantograph` on its PATH.
    const home = join(dir, 'home');
    mkdirSync(join(home, 'bin'), { recursive: true });
    symlinkSync(bin, join(home, 'bin', 'pantograph'));
    const r = spawnSync(
      'fish',
      [
        '-c',
        [
          'mkdir -p ~/.config/fish/completions',
          'pantograph completion fish > ~/.config/fish/completions/pantograph.fish',
          "complete -C 'pantograph fleet st'",
          "fish --no-config -c 'source (pantograph completion fish | psub); complete -C \\'pantograph st\\''",
        ].join('\n'),
      ],
      {
        encoding: 'utf8',
        env: {
          ...process.env,
          HOME: home,
          PATH: `${join(home, 'bin')}:${process.env.PATH}`,
          XDG_CONFIG_HOME: join(home, '.config'),
          XDG_DATA_HOME: join(home, '.local/share'),
        },
      },
    );
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^status\tclone or fetch every repository.*\nstatus\tevery path classified/);
  });
});

describe('the fish script of any command line', () => {
  it('a quote, a `$` or a parenthesis in a choice or description is text, not fish code', () => {
    const program = new Command('tool');
    program
      .command('run')
      .description("run it's $HOME (echo own)")
      .addOption(
        new Option('--mode <m>', "a mode's \\ (echo x)").choices(["it's", '$HOME', '(echo x)', 'two words']),
      );
    const file = join(dir, 'tool.fish');
    writeFileSync(file, completionScript(program, 'fish'));
    const [modes, commands] = fishOffers(file, ['tool run --mode ', 'tool r']);
    expect(modes).toEqual(
      ['$HOME', '(echo x)', "it's", 'two words'].map((mode) => [mode, "a mode's \\ (echo x)"]),
    );
    expect(commands).toEqual([['run', "run it's $HOME (echo own)"]]);
  });
});
