/**
 * The engine's hints speak to the command line (`--no-strict`, `--modulepath`). The playground says them
 * in its own terms: the control on the page that does the same, or that the page has no such thing and
 * where it is. A hint the page has nothing to say for is shown as the engine gives it.
 */

/** A part of an engine's hint, and how the page says it. */
const PAGE_WORDS: readonly (readonly [RegExp, string])[] = [
  [
    /render with strict variables off \(--no-strict\)/,
    'untick Strict variables, above the output (it then renders empty, with a warning, as Puppet 7 does)',
  ],
  [
    /give the directory holding it as the module path \(--modulepath;[^)]*\)/,
    'the playground has no modules: render it with `pantograph epp render`, which finds them (--modulepath)',
  ],
  [
    /, and with a module path, the functions its modules write in Puppet$/,
    ' (the functions modules write in Puppet need `pantograph epp render` and its module path: the playground has no modules)',
  ],
];

/** The command-line options the page's words name on purpose (as the place to go), not as a control here. */
export const OPTIONS_NAMED_AS_ELSEWHERE: readonly string[] = ['--modulepath'];

/**
 * The hint of an error (`code`, `message` as the engine gives them) worded for the page: `undefined` when
 * there is none. An error with no hint of the engine's may have one of the page's (a file epp() asks for
 * that no tab holds).
 */
export function pageHint(code: string, message: string, hint: string | undefined): string | undefined {
  if (hint === undefined) {
    const missing = code === 'EPP_TEMPLATE_NOT_FOUND' ? /Could not find template '([^']+)'/.exec(message) : null;
    return missing ? `add it in a tab of its own: + beside the tabs, named ${missing[1]}` : undefined;
  }
  let said = hint;
  for (const [part, words] of PAGE_WORDS) said = said.replace(part, words);
  // A hint naming an option the page has no control for (one added to the engine since): said so.
  const unknown = [...said.matchAll(/--[a-z][a-z-]*/g)].map((m) => m[0]).filter((o) => !OPTIONS_NAMED_AS_ELSEWHERE.includes(o));
  if (unknown.length > 0) said += ` (${unknown.join(', ')}: an option of \`pantograph epp render\`, not of this page)`;
  return said;
}
