/**
 * Shell completion scripts, made from the command line's own definition (main.ts), so that every command,
 * subcommand and option a release has completes, and nothing it lacks. The script is static: no
 * `pantograph` process runs on a Tab (start-up would be felt on every key), so a command's arguments
 * (paths, template names) complete as the shell completes files.
 *
 * One walk of the command tree (completion-tree.ts), rendered for each shell: bash's function
 * (completion-bash.ts), which zsh takes through its own bash-completion layer (`bashcompinit`), and fish's
 * `complete` lines (completion-fish.ts).
 */
import type { Command } from 'commander';
import { bashScript } from './completion-bash.js';
import { fishScript } from './completion-fish.js';
import { commandTree } from './completion-tree.js';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

/** The completion script of `program` for `shell`. */
export function completionScript(program: Command, shell: Shell): string {
  const nodes = commandTree(program);
  if (shell === 'fish') return fishScript(program.name(), nodes);
  const bash = bashScript(program.name(), nodes);
  if (shell === 'bash') return bash;
  return [
    `#compdef ${program.name()}`,
    "# zsh: the bash completion below, through zsh's bashcompinit (compinit first, if the shell has not run it)",
    '(( $+functions[compdef] )) || { autoload -U +X compinit && compinit }',
    'autoload -U +X bashcompinit && bashcompinit',
    bash,
  ].join('\n');
}
