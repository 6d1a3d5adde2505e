/** How a problem is shown: a URL's password is masked in its message, hint and code frame. */
import { describe, expect, it } from 'vitest';
import { formatProblem } from '../../src/cli/format-error.js';

describe('formatProblem', () => {
  it('masks a password in the message, the hint and the frame, with the caret under the same text', () => {
    const source =
      'pdk_template:\n  template_sources:\n    - { location: "https://bot:ghp_TOKEN@h/t.git", ref: nope }\n';
    const start = source.indexOf('nope');
    const shown = formatProblem({
      code: 'GIT_BAD_REF',
      message: "git source 'https://bot:ghp_TOKEN@h/t.git' has no branch, tag or commit 'nope'",
      file: '.sync.yml',
      source,
      span: { start, end: start + 4 },
      hint: 'see https://bot:ghp_TOKEN@h/t.git',
    });
    expect(shown).toBe(
      [
        ".sync.yml:3:57: error: git source 'https://bot:***@h/t.git' has no branch, tag or commit 'nope' [GIT_BAD_REF]",
        '  1 | pdk_template:',
        '  2 |   template_sources:',
        '> 3 |     - { location: "https://bot:***@h/t.git", ref: nope }',
        // under `nope`, which the masked line shows 7 columns earlier than the file has it
        `    | ${' '.repeat(50)}^^^^`,
        '  hint: see https://bot:***@h/t.git',
      ].join('\n'),
    );
  });
});
