/**
 * How a `post` command line becomes a program's arguments. It is split as a shell splits words (POSIX
 * quotes and backslashes, nothing else: no variables, globs or pipes); an argument that is `{}` becomes
 * the written file's project-relative path, appended as the last argument when no argument is `{}`. The
 * path is only ever a whole argument: templates choose their files' names, and a name spliced into a
 * larger word (`sh -c 'fmt {}'`) would be code (`a$(touch x).rb`, security review qa20). A `{}` inside a
 * word is refused where the command is written (.sync.yml) and again before a plan is applied
 * (`placeholderProblem`). Text only: the engine reads .sync.yml with it and loads no more.
 */

/** The words of a command line, quotes removed. */
export function splitCommand(command: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < command.length; i++) {
    const c = command[i]!;
    if (quote) {
      if (c === quote) quote = undefined;
      else if (c === '\\' && quote === '"' && '$`"\\\n'.includes(command[i + 1] ?? 'x')) word += command[++i];
      else word += c;
    } else if (c === '"' || c === "'") {
      quote = c;
      inWord = true;
    } else if (c === '\\' && i + 1 < command.length) {
      word += command[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  return words;
}

/** Where a post command takes the file's path: an argument of its own. */
export const PLACEHOLDER = '{}';

/**
 * The argv for one file: each `{}` argument is the path, or the path is appended. A path starting with
 * `-` is prefixed with `./` so it is never an option. A `{}` inside a larger word is left as it is: the
 * path is never spliced into one (such a command is refused before it could run: `placeholderProblem`).
 */
export function commandArgs(command: string, path: string): string[] {
  const arg = path.startsWith('-') ? `./${path}` : path;
  const words = splitCommand(command);
  if (!words.includes(PLACEHOLDER)) return [...words, arg];
  return words.map((w) => (w === PLACEHOLDER ? arg : w));
}

/** Why a post command may not run (`{}` inside a larger word), with what to write instead; or undefined. */
export function placeholderProblem(command: string): { message: string; hint: string } | undefined {
  const word = splitCommand(command).find((w) => w !== PLACEHOLDER && w.includes(PLACEHOLDER));
  if (word === undefined) return undefined;
  return {
    message: `post command ${JSON.stringify(command)} has {} inside the argument ${JSON.stringify(word)}: the file's name would become part of it (shell code, for \`sh -c\`), and a template chooses its files' names`,
    hint: `pass {} as an argument of its own: \`fmt --file {}\`, or for a shell \`sh -c 'fmt "$1" || true' sh {}\` (the name is then "$1", never code)`,
  };
}
