/**
 * Security review qa20, item 5: a template names its files, and a `post` command of the project runs on
 * them. `{}` was replaced inside words, so with `sh -c 'echo formatting {}'` a git template's file named
 * `a$(touch PWN_POST).rb` ran `touch PWN_POST`. The path is now only ever a whole argument: a `{}` inside
 * a word is refused at the command before anything is written, and the shell form that passes the name
 * as "$1" runs with the name as data. Names with control characters are refused from any template.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run, templates } from '../cli/cli-helpers.js';
import { snapshotDir, tempTree } from '../helpers/fs.js';
import { tempRemote, useFreshGitCache } from '../helpers/git.js';

useFreshGitCache();

const HOSTILE = 'a$(touch PWN_POST).rb';

/** A project applying the untrusted git template `evil` (one file, `name`), with `post` lines appended. */
function project(files: Record<string, string>, post: string): string {
  const remote = tempRemote();
  remote.commit(
    templates('', { evil: { 'template.json': { version: '1.0.0', always_apply: true }, ...files } }),
  );
  return tempTree({
    '.sync.yml': `pdk_template:\n  version: 2\n  template_sources:\n    - { type: git, location: "${remote.url}" }\n  post:\n${post}`,
  });
}

describe('a post command with {} inside a shell script', () => {
  it('is refused at the command, before anything is written or run', async () => {
    const root = project({ [`files/${HOSTILE}`]: 'x\n' }, `    - { "*.rb": "sh -c 'echo formatting {}'" }\n`);
    const before = snapshotDir(root);
    const r = await run(root, 'apply');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `.sync.yml:6:17: error: post command "sh -c 'echo formatting {}'" has {} inside the argument "echo formatting {}": the file's name would become part of it (shell code, for \`sh -c\`), and a template chooses its files' names [SYNC_POST_COMMAND]`,
    );
    expect(r.stderr).toContain(
      `hint: pass {} as an argument of its own: \`fmt --file {}\`, or for a shell \`sh -c 'fmt "$1" || true' sh {}\``,
    );
    const json = await run(root, 'apply', '--format', 'json');
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout).problems).toEqual([
      expect.objectContaining({
        code: 'SYNC_POST_COMMAND',
        file: join(root, '.sync.yml'),
        line: 6,
        column: 17,
      }),
    ]);
    expect((await run(root, 'validate')).stderr).toContain('[SYNC_POST_COMMAND]');
    expect(existsSync(join(root, 'PWN_POST'))).toBe(false);
    expect(snapshotDir(root)).toEqual(before);
  });

  it('written with the name as "$1" runs, and the name stays data', async () => {
    const root = project(
      { [`files/${HOSTILE}`]: 'x\n' },
      `    - { "*.rb": "sh -c 'echo \\"formatting $1\\" >> post.log' sh {}" }\n`,
    );
    const r = await run(root, 'apply');
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(readFileSync(join(root, 'post.log'), 'utf8')).toBe(`formatting ${HOSTILE}\n`);
    expect(readFileSync(join(root, HOSTILE), 'utf8')).toBe('x\n');
    expect(existsSync(join(root, 'PWN_POST'))).toBe(false);
  });
});

describe('a template file whose name holds a control character', () => {
  it.each([
    ['a\nb.rb', 'U+000A', '"a\\nb.rb"'],
    ['c\u001b[31mred.rb', 'U+001B', '"c\\u001b[31mred.rb"'],
  ])('%j is refused, escaped in the message and its location, and nothing is written', async (name, code, shown) => {
    const root = project({ [`files/${name}`]: 'x\n', 'files/ok.txt': 'ok\n' }, '    - { "*": "true" }\n');
    const before = snapshotDir(root);
    const r = await run(root, 'apply');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `error: output path ${shown} of template 'evil' contains a control character (${code}): rename the file [RENDER_PATH_REFUSED]`,
    );
    // The file's location is shown with the character escaped, never sent to the terminal.
    const location = r.stderr.split('\n').find((l) => l.includes('[RENDER_PATH_REFUSED]'))!;
    expect(location).toMatch(/\/evil\/files\/.*\\u00(0a|1b).*:1:1: error/);
    expect(location).not.toContain('\u001b');
    expect(snapshotDir(root)).toEqual(before);
  });
});
