import { afterEach, describe, expect, it } from 'vitest';
import { type OutputClaim, resolvePaths } from '../../src/engine/composition.js';
import { loadProject } from '../../src/engine/project.js';
import { removeTempDirs, snapshotDir, type Tree, tempTree } from '../helpers/fs.js';

afterEach(() => removeTempDirs());

/** A template repository with the given templates (name -> template.json fields). */
function repo(templates: Record<string, Record<string, unknown>>): string {
  const tree: Tree = {};
  for (const [name, json] of Object.entries(templates))
    tree[`${name}/template.json`] = JSON.stringify({ name, ...json });
  return tempTree(tree, 'pantograph-repo-');
}

function project(repoDir: string, body: string): string {
  return tempTree({
    '.sync.yml': `pdk_template:\n  version: 2\n  template_sources:\n    - type: filesystem\n      location: ${repoDir}\n${body}`,
  });
}

const TEMPLATES = {
  zeta: { always_apply: true },
  alpha: { always_apply: true },
  gemfile: {},
  rubocop: {},
  litmus: {},
};

describe('applied order', () => {
  it('lists templates in order, then always_apply ones alphabetically', async () => {
    const p = await loadProject(project(repo(TEMPLATES), '  templates: [rubocop, gemfile]\n'));
    expect(p.applied.map((t) => t.name)).toEqual(['rubocop', 'gemfile', 'alpha', 'zeta']);
    expect(p.problems).toEqual([]);
  });

  it('keeps a listed always_apply template at its listed place', async () => {
    const p = await loadProject(project(repo(TEMPLATES), '  templates: [zeta, gemfile]\n'));
    expect(p.applied.map((t) => t.name)).toEqual(['zeta', 'gemfile', 'alpha']);
  });

  it('excludes an always_apply template with ---name', async () => {
    const p = await loadProject(project(repo(TEMPLATES), '  templates: [gemfile, ---zeta]\n'));
    expect(p.applied.map((t) => t.name)).toEqual(['gemfile', 'alpha']);
    expect(p.problems).toEqual([]);
  });

  it('applies only the always_apply templates when none are listed', async () => {
    const p = await loadProject(project(repo(TEMPLATES), ''));
    expect(p.applied.map((t) => t.name)).toEqual(['alpha', 'zeta']);
  });

  it('reports an unknown template with did-you-mean and position, and leaves it out', async () => {
    const root = project(repo(TEMPLATES), '  templates:\n    - gemfile\n    - rubocopp\n');
    const before = snapshotDir(root);
    const p = await loadProject(root);
    expect(snapshotDir(root)).toEqual(before);
    expect(p.applied.map((t) => t.name)).toEqual(['gemfile', 'alpha', 'zeta']);
    expect(p.problems).toEqual([
      {
        severity: 'error',
        code: 'COMPOSITION_UNKNOWN_TEMPLATE',
        message: "unknown template 'rubocopp': no template source has it",
        file: `${root}/.sync.yml`,
        line: 8,
        column: 7,
        hint: "did you mean 'rubocop'?",
      },
    ]);
  });

  it('warns about ---name for a template that is not always applied, or unknown', async () => {
    const root = project(repo(TEMPLATES), '  templates: [gemfile, ---litmus, ---nosuch]\n');
    const p = await loadProject(root);
    expect(p.applied.map((t) => t.name)).toEqual(['gemfile', 'alpha', 'zeta']);
    expect(p.problems.map((x) => [x.severity, x.code, x.line, x.column])).toEqual([
      ['warning', 'COMPOSITION_EXCLUDE_NOT_ALWAYS_APPLY', 6, 24],
      ['warning', 'COMPOSITION_EXCLUDE_UNKNOWN', 6, 35],
    ]);
  });

  it('warns about settings for templates that are not applied', async () => {
    const root = project(repo(TEMPLATES), '  templates: [gemfile]\nrubocop:\n  x: 1\ngemfil:\n  y: 2\n');
    const p = await loadProject(root);
    expect(p.problems).toEqual([
      {
        severity: 'warning',
        code: 'COMPOSITION_SETTINGS_NOT_APPLIED',
        message: "settings for template 'rubocop', which is not applied",
        file: `${root}/.sync.yml`,
        line: 7,
        column: 1,
        hint: "add 'rubocop' to pdk_template.templates to apply it",
      },
      {
        severity: 'warning',
        code: 'COMPOSITION_SETTINGS_NOT_APPLIED',
        message: "settings for 'gemfil', which is no template of the sources",
        file: `${root}/.sync.yml`,
        line: 9,
        column: 1,
        hint: "did you mean 'gemfile'?",
      },
    ]);
  });
});

describe('resolvePaths', () => {
  const claim = (path: string, template: string, order: number, empty = false): OutputClaim => ({
    path,
    template,
    order,
    empty,
  });

  it('gives a path to the earliest template and reports the others', () => {
    const { winners, problems } = resolvePaths([
      claim('b', 'second', 1),
      claim('a', 'first', 0),
      claim('b', 'first', 0),
      claim('c', 'third', 2),
    ]);
    expect(winners.map((w) => `${w.path}:${w.template}`)).toEqual(['a:first', 'b:first', 'c:third']);
    expect(problems).toEqual([
      {
        severity: 'warning',
        code: 'COMPOSITION_PATH_CLAIMED',
        message: "'b' is produced by templates 'first' and 'second'; 'first' wins",
        hint: 'the earliest template in the applied order with non-empty output wins',
      },
    ]);
  });

  it('skips an earlier template whose output is empty', () => {
    const { winners } = resolvePaths([
      claim('x', 'early', 0, true),
      claim('x', 'late', 1),
      claim('x', 'later', 2),
    ]);
    expect(winners.map((w) => w.template)).toEqual(['late']);
  });

  it('keeps the earliest when every output is empty', () => {
    const { winners } = resolvePaths([claim('x', 'late', 1, true), claim('x', 'early', 0, true)]);
    expect(winners.map((w) => [w.template, w.empty])).toEqual([['early', true]]);
  });
});
