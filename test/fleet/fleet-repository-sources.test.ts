/**
 * A repository's own `template_sources:` in fleet.yml, in place of the fleet's: one module held on an
 * earlier template release (or a canary on the next) while the rest of the fleet moves, in the same run.
 * A bad value is refused at its file:line:col before anything is cloned (built CLI, real git remotes).
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from '../helpers/fs.js';
import { tempRemote } from '../helpers/git.js';
import { git, moduleRemote, pantograph } from './fleet-helpers.js';

afterAll(removeTempDirs);

const hello = (text: string, version: string) => ({
  'hello/template.json': JSON.stringify({ name: 'hello', version, always_apply: true }),
  'hello/files/HELLO.txt.epp': `${text}\n`,
});

describe("a repository's own template_sources", () => {
  it("replace the fleet's for that repository alone, written into its .sync.yml", () => {
    const templates = tempRemote();
    templates.tag('v1', templates.commit(hello('one', '1.0.0')));
    templates.tag('v2', templates.commit(hello('two', '2.0.0')));
    const root = tempDir('fleet-own-sources-');
    const moving = moduleRemote(root, 'moving');
    const held = moduleRemote(root, 'held');
    writeFileSync(
      join(root, 'fleet.yml'),
      [
        'version: 1',
        'template_sources:',
        `  - { type: git, location: "${templates.url}", ref: v2 }`,
        '  - default',
        'repositories:',
        '  - { name: moving, url: remotes/moving.git }',
        '  - name: held',
        '    url: remotes/held.git',
        '    template_sources:   # not ready for v2 yet',
        `      - { type: git, location: "${templates.url}", ref: v1 }`,
        '      - default',
        '',
      ].join('\n'),
    );
    const r = pantograph(root, ['fleet', 'apply', '--push']);
    expect(r.status, r.stdout + r.stderr).toBe(0);
    expect(git(moving, 'show', 'pantograph/update:HELLO.txt')).toBe('two');
    expect(git(moving, 'show', 'pantograph/update:.sync.yml')).toContain('ref: v2');
    expect(git(held, 'show', 'pantograph/update:HELLO.txt')).toBe('one');
    expect(git(held, 'show', 'pantograph/update:.sync.yml')).toContain('ref: v1');
    expect(git(held, 'show', 'pantograph/update:.sync.yml')).not.toContain('ref: v2');
    // Merged, both are in line with what the fleet file gives each.
    for (const bare of [moving, held])
      git(bare, 'update-ref', 'refs/heads/main', 'refs/heads/pantograph/update');
    const status = pantograph(root, ['--format', 'json', 'fleet', 'status']);
    expect(status.status, status.stdout).toBe(0);
    expect(JSON.parse(status.stdout).summary['in-line']).toBe(2);
  });

  it('a bad one is refused at its file:line:col, with what to do, before anything is cloned', () => {
    const root = tempDir('fleet-own-sources-bad-');
    moduleRemote(root, 'held');
    const file = join(root, 'fleet.yml');
    writeFileSync(
      file,
      [
        'version: 1',
        'repositories:',
        '  - name: held',
        '    url: remotes/held.git',
        '    template_sources:',
        '      - { type: git, ref: v1 }',
        '',
      ].join('\n'),
    );
    const r = pantograph(root, ['fleet', 'status']);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(
      "fleet.yml:6:9: error: /repositories/0/template_sources/0 has no 'location', which is required [FLEET_INVALID]",
    );
    expect(r.stderr).toContain('hint: a git source needs `location:`, its URL');
    const json = pantograph(root, ['--format', 'json', 'fleet', 'status']);
    expect(json.status).toBe(1);
    expect(JSON.parse(json.stdout).problems[0]).toMatchObject({
      code: 'FLEET_INVALID',
      file,
      line: 6,
      column: 9,
    });
    expect(existsSync(join(root, '.pantograph-fleet'))).toBe(false);

    // An empty list is no source at all.
    writeFileSync(
      file,
      'version: 1\nrepositories:\n  - { name: held, url: remotes/held.git, template_sources: [] }\n',
    );
    const empty = pantograph(root, ['--format', 'json', 'fleet', 'status']);
    expect(empty.status).toBe(1);
    expect(JSON.parse(empty.stdout).problems[0]).toMatchObject({
      code: 'FLEET_INVALID',
      line: 3,
      column: 60,
    });
    expect(JSON.parse(empty.stdout).problems[0].hint).toContain(
      "or leave `template_sources` out of its entry to take the fleet's",
    );
    expect(existsSync(join(root, '.pantograph-fleet'))).toBe(false);
  });
});
