/**
 * The command line as a completion script needs it, read from commander's own definition (main.ts): every
 * command with its path of words, its subcommands and its options not hidden. Each shell's script
 * (completion-bash.ts, completion-fish.ts) is a rendering of this one walk.
 */
import type { Command, Option } from 'commander';

/** One option of a command. */
export interface OptionNode {
  /** Its spellings: `-C`, `--dir`. */
  readonly flags: readonly string[];
  readonly description: string;
  /** Followed by a value (`--dir DIR`): the word after it is the value, not a command. */
  readonly valued: boolean;
  /** The values it takes when they are a list (`--format text|json`). */
  readonly choices: readonly string[] | undefined;
}

/** One command of the tree. */
export interface CommandNode {
  /** Its words from the top (`[]` for the program itself, `['fleet', 'status']`). */
  readonly words: readonly string[];
  readonly description: string;
  readonly subcommands: readonly string[];
  /** Its own options; the program's are global: every command takes them. */
  readonly options: readonly OptionNode[];
}

/** Every command of `program`, the program itself first, each before its subcommands. */
export function commandTree(program: Command): CommandNode[] {
  const nodes: CommandNode[] = [];
  const visit = (command: Command, words: readonly string[]) => {
    const top = words.length === 0;
    nodes.push({
      words,
      description: oneLine(command.summary() || command.description()),
      subcommands: command.commands.map((c) => c.name()),
      // Commander's help adds `-h, --help` to each command: kept once, with the global options.
      options: command
        .createHelp()
        .visibleOptions(command)
        .filter((o) => top || command.options.includes(o))
        .map(optionNode),
    });
    for (const sub of command.commands) visit(sub, [...words, sub.name()]);
  };
  visit(program, []);
  return nodes;
}

function optionNode(option: Option): OptionNode {
  return {
    flags: [option.short, option.long].filter((f): f is string => f !== undefined),
    description: oneLine(option.description),
    valued: option.required || option.optional,
    choices: option.argChoices,
  };
}

/** A description as a shell shows it beside a word: one line. */
const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim();
