/**
 * Reusing a previous run's result: a repository whose lock does not record the fleet's git template
 * source yet (before its first pull request is merged) is planned at the latest commit of the source's
 * `ref`. When that branch moves, `fleet status` and `fleet apply --noop` plan it again without `--fresh`:
 * a new file is seen, a template that now fails is `failed`, not a resumed `drift`. Real git throughout.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from '../helpers/fs.js';
import { type TempRemote, tempRemote } from '../helpers/git.js';
import { moduleRemote, pantograph } from './fleet-helpers.js';

afterAll(removeTempDirs);

interface Record {
  name: string;
  result: string;
  files: { path: string }[];
  resumed?: boolean;
  error?: { message: string };
}

let root: string;
let templates: TempRemote;

const hello = {
  'hello/template.json': JSON.stringify({ name: 'hello', version: '1.0.0', always_apply: true }),
  'hello/files/HELLO.txt.epp': 'hello\n',
};

function run(args: string[]): { status: number | null; record: Record } {
  const r = pantograph(root, ['--format', 'json', 'fleet', ...args]);
  const record = (JSON.parse(r.stdout) as { repositories: Record[] }).repositories[0]!;
  return { status: r.status, record };
}

const paths = (r: Record) => r.files.map((f) => f.path).sort();

beforeAll(() => {
  templates = tempRemote();
  templates.commit(hello);
  root = tempDir('fleet-resume-');
  moduleRemote(root, 'a');
  writeFileSync(
    join(root, 'fleet.yml'),
    [
      'version: 1',
      'template_sources:',
      `  - { type: git, location: "${templates.url}", ref: main }`,
      '  - default',
      'repositories: [{ name: a, url: remotes/a.git }]',
      '',
    ].join('\n'),
  );
}, 60_000);

describe('a resumed result', () => {
  it('is planned again when a template source the lock does not record moves on its branch', () => {
    const first = run(['status']);
    expect(first.record).toMatchObject({ result: 'drift' });
    expect(first.record.resumed).toBeUndefined();
    expect(paths(first.record)).toEqual(['.sync.yml', 'HELLO.txt']);
    // Nothing moved: reused.
    expect(run(['status']).record).toMatchObject({ result: 'drift', resumed: true });

    templates.commit({ 'hello/files/SECOND.txt.epp': 'second\n' });
    const moved = run(['status']);
    expect(moved.record.resumed).toBeUndefined();
    expect(paths(moved.record)).toEqual(['.sync.yml', 'HELLO.txt', 'SECOND.txt']);
    expect(run(['status']).record).toMatchObject({ resumed: true });

    // A template that now fails is reported failed (exit 1), not the previous drift.
    templates.commit({ 'hello/files/BROKEN.txt.epp': '<%= $nope %>\n' });
    const broken = run(['status']);
    expect(broken.status).toBe(1);
    expect(broken.record.result).toBe('failed');
    expect(broken.record.error?.message).toContain('$nope');

    // apply --noop alike: its result is reused until the branch moves.
    templates.commit({}, { remove: ['hello/files/BROKEN.txt.epp'] });
    const noop = run(['apply', '--noop']);
    expect(paths(noop.record)).toEqual(['.sync.yml', 'HELLO.txt', 'SECOND.txt']);
    expect(run(['apply', '--noop']).record).toMatchObject({ resumed: true });
    templates.commit({ 'hello/files/THIRD.txt.epp': 'third\n' });
    const third = run(['apply', '--noop']);
    expect(third.record.resumed).toBeUndefined();
    expect(paths(third.record)).toEqual(['.sync.yml', 'HELLO.txt', 'SECOND.txt', 'THIRD.txt']);
  });

  it('of a repository whose lock records the source stays reused when the branch moves (it plans at the lock)', () => {
    const applied = run(['apply', '--push']);
    expect(applied.record).toMatchObject({ result: 'applied' });
    expect(run(['apply', '--push']).record).toMatchObject({ result: 'in-line', resumed: true });
    templates.commit({ 'hello/files/FOURTH.txt.epp': 'fourth\n' });
    const again = run(['apply', '--push']);
    // Resumed: what this run did is nothing (committed and pushed say so).
    expect(again.record).toMatchObject({ result: 'in-line', resumed: true, committed: false, pushed: false });
  });
});
