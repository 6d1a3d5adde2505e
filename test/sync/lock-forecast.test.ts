/**
 * `statusWithLock`: the lock apply would record when it writes no file, from status's one scan. For each
 * way the lock changes with every file left as it is (and for none), apply is run after it: it writes no
 * file, and the lock it leaves is the forecast byte for byte (and changed exactly when the forecast differs
 * from the lock before). The fleet's status says `to-update` from this comparison.
 */
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PlannedFile, RenderPlan } from '../../src/engine/render-plan.js';
import { apply, readLock, serializeLock, statusWithLock } from '../../src/sync/index.js';
import { sameLock } from '../../src/sync/lock.js';
import { file, planOf, put, tmpProject } from './helpers.js';

const lockText = (root: string): string => readFileSync(join(root, '.pantograph.lock'), 'utf8');

interface Case {
  readonly name: string;
  /** Changes the project after the first apply; returns the second plan's files and extras. */
  readonly change: (root: string) => { files: PlannedFile[]; extra?: Partial<RenderPlan> };
  readonly lockChanges: boolean;
}

const FIRST = [file('x', '1\n'), file('d/y', '2\n')];

const cases: Case[] = [
  { name: 'nothing changes', change: () => ({ files: FIRST }), lockChanges: false },
  {
    name: 'an entry recorded anew: the output changed and the file was put in line by hand',
    change: (root) => {
      put(root, 'x', 'one\n');
      return { files: [file('x', 'one\n'), FIRST[1]!] };
    },
    lockChanges: true,
  },
  {
    name: "an entry recorded anew: the file's template renamed, the same output",
    change: () => ({ files: [file('x', '1\n', { template: 'base2', source: 'files/x2.epp' }), FIRST[1]!] }),
    lockChanges: true,
  },
  {
    name: 'an entry added: a file the templates now produce, already identical',
    change: (root) => {
      put(root, 'n', 'n\n');
      return { files: [...FIRST, file('n', 'n\n')] };
    },
    lockChanges: true,
  },
  {
    name: 'an entry and its directory dropped: no template produces it, deleted by hand',
    change: (root) => {
      rmSync(join(root, 'd'), { recursive: true });
      return { files: [FIRST[0]!] };
    },
    lockChanges: true,
  },
  {
    name: 'an entry dropped: the file now listed in unmanaged',
    change: () => ({ files: FIRST, extra: { unmanaged: ['x'] } }),
    lockChanges: true,
  },
];

describe('statusWithLock', () => {
  for (const c of cases) {
    it(`forecasts the lock apply writes: ${c.name}`, async () => {
      const root = tmpProject();
      await apply(planOf(root, FIRST));
      const before = readLock(root)!;
      const { files, extra } = c.change(root);
      const plan = planOf(root, files, extra);

      const { report, lockIfNoWrite } = statusWithLock(plan);
      expect(report.drift).toBe(false);
      expect(sameLock(before, lockIfNoWrite)).toBe(!c.lockChanges);

      const applied = await apply(plan);
      expect(applied.written).toEqual([]);
      expect(applied.removed).toEqual([]);
      expect(applied.lockChanged).toBe(c.lockChanges);
      expect(lockText(root)).toBe(serializeLock(lockIfNoWrite));
    });
  }
});
