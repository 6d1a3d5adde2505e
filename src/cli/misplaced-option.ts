/**
 * `pantograph --offline status`, `pantograph --values v.yaml epp render t.epp`, `pantograph epp -o x dump`:
 * an option of a command written before it (before the program's subcommand, or between a group and its
 * subcommand). Commander says "unknown option '--values'" and prints the help of where it was written,
 * which does not list it; the hint says whose option it is and where it goes. Another tool's word for an
 * option (`--dry-run`) gets ours (`--noop`) where the command has it.
 */
import type { Command, Option } from 'commander';

/** The hint for commander's `unknown option` error, when the option is the command's that follows it. */
export function misplacedOptionHint(
  program: Command,
  argv: readonly string[],
  message: string,
): string | undefined {
  const unknown = /unknown option '([^']+)'/.exec(message)?.[1]?.split('=')[0];
  if (unknown === undefined) return undefined;
  const names: string[] = [];
  const commands = [program];
  let written: string[] | undefined; // the unknown option as given, with its value
  let valueMayFollow = false; // the word after an unknown option may be its value: we cannot know
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const command = commands[commands.length - 1]!;
    if (arg === '--') break;
    if (arg.startsWith('-') && arg !== '-') {
      const name = arg.split('=')[0]!;
      const option = commands.map((c) => optionOf(c, name)).find((o) => o !== undefined);
      if (option !== undefined) {
        if (takesValue(option) && !arg.includes('=')) i++;
        valueMayFollow = false;
        continue;
      }
      if (name === unknown && written === undefined) written = [arg];
      valueMayFollow = !arg.includes('=');
      continue;
    }
    const sub = command.commands.find((c) => c.name() === arg || c.aliases().includes(arg));
    if (sub !== undefined) {
      commands.push(sub);
      names.push(arg);
    } else if (valueMayFollow) {
      if (written?.length === 1 && argv[i - 1] === written[0]) written.push(arg);
    } else {
      break;
    }
    valueMayFollow = false;
  }
  const owner = commands[commands.length - 1]!;
  const option = optionOf(owner, unknown);
  const synonym = SYNONYMS[unknown];
  if (option === undefined && synonym !== undefined && optionOf(owner, synonym) !== undefined) {
    const name = `pantograph ${names.join(' ')}`;
    return `${unknown} is called ${synonym} here, as in Puppet and modulesync (\`${name} ${synonym}\`)`;
  }
  if (owner === program || written === undefined || option === undefined) return undefined;
  // A value is shown only when the option takes one (a word after a flag was an operand of nothing).
  const usage = takesValue(option) ? written.join(' ') : unknown;
  const name = `pantograph ${names.join(' ')}`;
  return `${unknown} is an option of \`${name}\`: write it after the command (\`${name} ${usage}\`)`;
}

/**
 * Other tools' words for an option (rsync's, git clean's, kubectl's `--dry-run`): the hint names ours.
 * Not Ansible's `--check`: here that is `status --check`, which a user of `apply --check` may mean.
 */
const SYNONYMS: Readonly<Record<string, string>> = { '--dry-run': '--noop' };

function optionOf(command: Command, name: string): Option | undefined {
  return command.options.find((o) => o.long === name || o.short === name);
}

function takesValue(option: Option): boolean {
  return option.required || option.optional;
}
