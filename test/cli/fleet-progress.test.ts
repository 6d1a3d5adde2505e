import { describe, expect, it } from 'vitest';
import { FleetProgress } from '../../src/cli/fleet-progress.js';
import { memoryIo } from '../../src/cli/io.js';
import type { RepositoryRecord } from '../../src/fleet/index.js';

const failed: RepositoryRecord = {
  name: 'puppet-nginx',
  kind: 'git',
  result: 'failed',
  files: [],
  templates: [],
  error: {
    code: 'FLEET_GIT',
    message:
      "`git clone --quiet --no-checkout -- https://git.example/acme/puppet-nginx.git` failed: fatal: repository 'https://git.example/acme/puppet-nginx.git/' not found",
  },
  durationMs: 5,
};

function withWidth(width: number | undefined) {
  const io = memoryIo();
  return Object.assign(io, { widths: { err: width } });
}

describe('FleetProgress', () => {
  it("folds a finished repository's line at standard error's width, under the repository's name", () => {
    const io = withWidth(60);
    const progress = new FleetProgress(io, 12, false);
    progress.hear({ type: 'done', record: failed, finished: 3, total: 12 });
    const lines = io.stderr.trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(1);
    expect(lines[0]).toMatch(/^\[3\/12\] puppet-nginx: failed:/);
    for (const line of lines.slice(1)) expect(line).toMatch(/^ {7}\S/); // under `puppet-nginx`
    // The command, a code span, is never cut (wrap.ts): it stands whole on a line of its own.
    expect(io.stderr).toContain(
      '`git clone --quiet --no-checkout -- https://git.example/acme/puppet-nginx.git`',
    );
    for (const line of lines) {
      if (!line.includes('`')) expect(line.length).toBeLessThanOrEqual(60);
    }
  });

  it('is one line per repository where the output is not folded (a log with no COLUMNS)', () => {
    const io = withWidth(undefined);
    new FleetProgress(io, 12, false).hear({ type: 'done', record: failed, finished: 3, total: 12 });
    expect(io.stderr.split('\n')).toHaveLength(2);
  });

  it("cuts the live block's lines at the terminal's width, so that redrawing it leaves nothing behind", () => {
    const io = withWidth(40);
    const progress = new FleetProgress(io, 2, true);
    progress.hear({ type: 'step', name: 'a-repository-with-a-very-long-name-indeed', step: 'fetching' });
    const rows = io.stderr
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => l.replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9]*[A-Za-z]|\r`, 'g'), ''));
    expect(rows).toContain('  a-repository-with-a-very-long-name-i…');
    for (const row of rows) expect(row.length).toBeLessThan(40);
  });

  it("prints an interruption's notice above the live block, folded", () => {
    const io = withWidth(50);
    const progress = new FleetProgress(io, 2, false);
    progress.note(
      'interrupted (SIGINT): no repository is started any more; those under way stop at their next step\n',
    );
    for (const line of io.stderr.trimEnd().split('\n')) expect(line.length).toBeLessThanOrEqual(50);
    expect(io.stderr.split('\n')[1]).toMatch(/^ {2}\S/);
  });
});
