/**
 * `pantograph --offline status`: an option of a command written before it, where only the global ones
 * (`-C`, `--format`, `--no-color`, `-q`) go. Commander says "unknown option '--offline'" and prints the
 * program's help, which does not list it; the hint says whose option it is and where it goes.
 */
import type { Command } from 'commander';

/** The hint for commander's `unknown option` error, when the option is the command's that follows it. */
export function misplacedOptionHint(
  program: Command,
  argv: readonly string[],
  message: string,
): string | undefined {
  const unknown = /unknown option '([^']+)'/.exec(message)?.[1]?.split('=')[0];
  if (unknown === undefined) return undefined;
  const path: string[] = [];
  let command = program;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg.startsWith('-')) {
      const option = command.options.find((o) => o.long === arg.split('=')[0] || o.short === arg);
      if (option && (option.required || option.optional) && !arg.includes('=')) i++; // its value
      continue;
    }
    const sub = command.commands.find((c) => c.name() === arg || c.aliases().includes(arg));
    if (sub === undefined) break;
    command = sub;
    path.push(arg);
  }
  if (command === program || !command.options.some((o) => o.long === unknown || o.short === unknown)) {
    return undefined;
  }
  const name = `pantograph ${path.join(' ')}`;
  return `${unknown} is an option of \`${name}\`: write it after the command (\`${name} ${unknown}\`)`;
}
