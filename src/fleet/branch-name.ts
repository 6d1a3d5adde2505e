/**
 * Git's rules for a branch name (`git check-ref-format --branch`), checked once before any repository is
 * cloned: a name git refuses would otherwise fail in every repository with git's own message.
 */

export const BRANCH_HINT =
  "a branch name is letters, digits and . _ - / without '..', not starting with '-', '/' or '.', not ending with '/', '.' or '.lock' (`git check-ref-format --branch NAME` says whether git takes it)";

/** Why git would refuse `name` as a branch, or undefined when it takes it. */
export function branchNameProblem(name: string): string | undefined {
  if (name === '') return 'is empty';
  if (name.startsWith('-')) return "starts with '-' (git would read it as an option)";
  if (name === '@') return "is '@' (git's name for HEAD)";
  if (name.includes('..')) return "holds '..'";
  if (name.includes('@{')) return "holds '@{'";
  // biome-ignore lint/suspicious/noControlCharactersInRegex: git refuses control characters
  if (/[\x00-\x20\x7f~^:?*[\\]/.test(name))
    return 'holds a space, a control character or one of ~ ^ : ? * [ \\';
  if (name.startsWith('/') || name.endsWith('/')) return "starts or ends with '/'";
  if (name.includes('//')) return "holds '//'";
  if (name.endsWith('.')) return "ends with '.'";
  for (const part of name.split('/')) {
    if (part.startsWith('.')) return `has a part starting with '.' ('${part}')`;
    if (part.endsWith('.lock')) return `has a part ending with '.lock' ('${part}')`;
  }
  return undefined;
}
