/**
 * The checker's queue (src/lsp/checker.ts) with the built worker: a job given the key of one still
 * waiting replaces it, so that a burst of keystrokes in `.sync.yml` loads its project for the last text
 * only, not once per keystroke in a row.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Checker, type CheckJob, SupersededError } from '../../src/lsp/checker.js';
import { removeTempDirs, tempTree } from '../helpers/fs.js';

afterAll(() => removeTempDirs());

describe('Checker', () => {
  it('drops a waiting job that a later one of the same key replaces, and runs the others', async () => {
    const repo = tempTree({
      'ntp/template.json': JSON.stringify({
        name: 'NTP',
        description: 'time',
        default_settings: { port: 123 },
      }),
      'ntp/files/x.txt': 'x\n',
    });
    const root = tempTree({});
    const job = (extra: string): CheckJob => ({
      kind: 'sync',
      root,
      text: `pdk_template:\n  version: 2\n  template_sources:\n    - type: filesystem\n      location: ${repo}\n  templates:\n    - ntp\n${extra}`,
      options: { offline: true },
      overlay: [],
      outline: true,
    });
    const checker = new Checker({ timeMs: 30_000, memoryMb: 256 }, 'loading');
    try {
      const first = checker.run(job('# 1\n'), { key: 'a' });
      const second = checker.run(job('# 2\n'), { key: 'a' }).catch((e: unknown) => e);
      const other = checker.run(job('# other\n'), { key: 'b' });
      const third = checker.run(job('# 3\n'), { key: 'a' });
      // The first was running already: it ends; the second waited and was replaced by the third.
      await expect(first).resolves.toMatchObject({ kind: 'outline' });
      expect(await second).toBeInstanceOf(SupersededError);
      await expect(other).resolves.toMatchObject({ kind: 'outline' });
      const last = await third;
      expect(last).toEqual({
        kind: 'outline',
        outline: {
          root: expect.any(String),
          sources: [repo],
          templates: [
            {
              name: 'ntp',
              dir: join(repo, 'ntp'),
              title: 'NTP',
              description: 'time',
              settings: [{ name: 'port', type: 'integer' }],
            },
          ],
        },
      });
    } finally {
      checker.close();
    }
  }, 60_000);
});
