/**
 * The fleet's progress lines as a user reads them in a terminal of COLUMNS columns, piped (a CI log with
 * COLUMNS set, `| less`): folded as the rest of the CLI folds its prose (src/cli/wrap.ts).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from '../helpers/fs.js';
import { moduleRemote, pantograph } from './fleet-helpers.js';

afterAll(removeTempDirs, 60_000);

describe('fleet progress lines', () => {
  it('are folded at COLUMNS when piped, continuation lines under the repository name', () => {
    const root = tempDir('fleet-fold-');
    const gone = join(root, 'remotes', 'a-remote-that-was-moved-away-long-ago.git');
    writeFileSync(
      join(root, 'fleet.yml'),
      `version: 1\nrepositories:\n  - { name: here, url: ${moduleRemote(root, 'here')} }\n  - { name: gone, url: ${gone} }\n`,
    );
    const r = pantograph(root, ['fleet', 'status', '--jobs', '1'], { COLUMNS: '60' });
    expect(r.status).toBe(1);
    const progress = r.stderr.slice(r.stderr.indexOf('[2/2] gone: failed:'));
    const lines = progress
      .slice(0, progress.indexOf('\n\n') >= 0 ? progress.indexOf('\n\n') : undefined)
      .split('\n');
    expect(lines[0]).toMatch(/^\[2\/2\] gone: failed:/);
    expect(lines[1]).toMatch(/^ {6}\S/); // under `gone`
    for (const line of lines.filter((l) => !l.includes('`') && !l.includes('/'))) {
      expect(line.length).toBeLessThanOrEqual(60);
    }
    const unfolded = pantograph(root, ['fleet', 'status', '--jobs', '1']);
    expect(unfolded.stderr).toMatch(/^\[2\/2\] gone: failed: .*does not exist.*$/m);
  });
});
