import { describe, expect, it } from 'vitest';
import { apply, status } from '../../src/sync/index.js';
import { file, planOf, put, tmpProject } from './helpers.js';

describe('status', () => {
  it('classifies every path, counts states and reports drift', async () => {
    const root = tmpProject();
    await apply(
      planOf(root, [
        file('stable', 's\n'),
        file('edited', 'e\n'),
        file('conflict', 'c1\n'),
        file('gone', 'g\n'),
      ]),
    );
    put(root, 'edited', 'mine\n');
    put(root, 'conflict', 'mine\n');
    put(root, 'adopt', 'theirs\n');
    put(root, 'old.yml', 'o\n');
    const plan = planOf(
      root,
      [
        file('stable', 's\n'),
        file('edited', 'e\n'),
        file('conflict', 'c2\n'),
        file('adopt', 'ours\n'),
        file('new', 'n\n'),
        file('Gemfile', 'g\n'),
      ],
      { purge: true, delete: ['old.yml'], unmanaged: ['Gemfile'] },
    );
    const report = status(plan);
    expect(report.entries.map((e) => [e.path, e.state])).toEqual([
      ['Gemfile', 'unmanaged'],
      ['adopt', 'adopt'],
      ['conflict', 'conflict'],
      ['edited', 'edited'],
      ['gone', 'purge'],
      ['new', 'create'],
      ['old.yml', 'delete'],
      ['stable', 'stable'],
    ]);
    expect(report.counts).toEqual({
      create: 1,
      changed: 0,
      stable: 1,
      edited: 1,
      conflict: 1,
      adopt: 1,
      delete: 1,
      purge: 1,
      unmanaged: 1,
      init: 0,
    });
    expect(report.drift).toBe(true);
    expect(report.entries.find((e) => e.path === 'conflict')).toEqual({
      path: 'conflict',
      state: 'conflict',
      template: 'base',
      kind: 'file',
      reason: 'changed by hand, and the template output changed too',
    });
  });

  it('gives diffs when asked, only for paths that are not stable', async () => {
    const root = tmpProject();
    await apply(planOf(root, [file('a', 'a\n'), file('b', 'b\n')]));
    const report = status(planOf(root, [file('a', 'a\n'), file('b', 'B\n')]), { diff: true });
    expect(report.entries).toEqual([
      { path: 'a', state: 'stable', template: 'base', kind: 'file' },
      {
        path: 'b',
        state: 'changed',
        template: 'base',
        kind: 'file',
        reason: 'template output changed',
        diff: '--- a/b\n+++ b/b\n@@ -1,1 +1,1 @@\n-b\n+B\n',
      },
    ]);
  });

  it('is not drift when everything is stable, and can be limited to paths', async () => {
    const root = tmpProject();
    const plan = planOf(root, [file('a/x', 'x\n'), file('b/y', 'y\n')]);
    await apply(plan);
    expect(status(plan).drift).toBe(false);
    put(root, 'b/y', 'mine\n');
    expect(status(plan).drift).toBe(true);
    expect(status(plan, { paths: ['a'] })).toMatchObject({ drift: false, entries: [{ path: 'a/x' }] });
  });
});
