/**
 * The README's table of contents: every section (`## ` heading outside code blocks) is listed, in order,
 * and every link reaches its heading (GitHub's anchor for it), so a reader who follows one lands there.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const README = readFileSync(resolve(import.meta.dirname, '../../README.md'), 'utf8');

/** The `## ` headings, code blocks left out (a `# comment` in a shell example is no heading). */
function sections(markdown: string): string[] {
  const headings: string[] = [];
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    else if (!fenced && line.startsWith('## ')) headings.push(line.slice(3).trim());
  }
  return headings;
}

/** GitHub's anchor for a heading: lower case, punctuation but `-` and `_` dropped, spaces to `-`. */
function anchor(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

describe('README contents', () => {
  it('lists every section in order, each link to its heading', () => {
    const contents = [...README.matchAll(/^- \[(.+)\]\(#([^)]+)\)$/gm)].map((m) => ({
      text: m[1]!,
      link: m[2]!,
    }));
    const headings = sections(README);
    expect(contents.map((c) => c.text)).toEqual(headings);
    expect(contents.map((c) => c.link)).toEqual(headings.map(anchor));
  });

  it('makes the anchors GitHub makes', () => {
    expect(anchor('The `.sync.yml` reference')).toBe('the-syncyml-reference');
    expect(anchor("Template author's guide")).toBe('template-authors-guide');
    expect(anchor('Many repositories: `pantograph fleet`')).toBe('many-repositories-pantograph-fleet');
  });
});
