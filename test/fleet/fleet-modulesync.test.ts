/**
 * A modulesync configuration as a fleet: `fleet import-modulesync` in the configuration's checkout writes a
 * fleet file whose `template_url` is the configuration itself, and `fleet status`/`apply` render every
 * module with its own `.sync.yml` as `msync update` would (the built CLI, real git remotes, real Ruby).
 */
import { cpSync, existsSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadFleet } from '../../src/fleet/index.js';
import { removeTempDirs, tempDir } from '../helpers/fs.js';
import { git, pantograph } from './fleet-helpers.js';

const FIXTURES = resolve(import.meta.dirname, '../fixtures/modulesync');

afterAll(removeTempDirs);

/** A change made to a module's work copy before its remote is made. */
type ModuleChange = (name: string, work: string) => void;
const noChange: ModuleChange = () => {};

/** The configurations made in this file, by the change made to their modules: each test gets a copy. */
const made = new Map<ModuleChange, string>();

/**
 * voxpupuli's configuration 10.8.0, managing two modules served from `remotes/voxpupuli/<name>`: a fresh
 * copy of the one made once per `change` (the same function), its `git_base` naming the copy's remotes.
 */
function configurationWithRemotes(change: ModuleChange = noChange): string {
  let madeRoot = made.get(change);
  if (madeRoot === undefined) {
    madeRoot = dirname(makeConfigurationWithRemotes(change));
    made.set(change, madeRoot);
  }
  const root = tempDir('fleet-msync-');
  cpSync(madeRoot, root, { recursive: true });
  const config = join(root, 'modulesync_config');
  writeModulesyncYml(config, root);
  return config;
}

/** modulesync.yml naming the remotes under `root`. */
function writeModulesyncYml(config: string, root: string): void {
  writeFileSync(
    join(config, 'modulesync.yml'),
    `---\ngit_base: 'file://${root}/remotes/'\nnamespace: voxpupuli\nbranch: modulesync\nmessage: "Update from voxpupuli modulesync_config"\n`,
  );
}

function makeConfigurationWithRemotes(change: ModuleChange): string {
  const root = tempDir('fleet-msync-made-');
  const config = join(root, 'modulesync_config');
  cpSync(join(FIXTURES, 'modulesync_config-10.8.0'), config, { recursive: true });
  writeFileSync(join(config, 'managed_modules.yml'), '---\n- puppet-archive\n- puppet-autofs\n');
  writeModulesyncYml(config, root);
  for (const name of ['puppet-archive', 'puppet-autofs']) {
    const work = join(root, 'work', name);
    cpSync(join(FIXTURES, 'modules', name), work, { recursive: true });
    change(name, work);
    git(work, 'init', '--quiet', '--initial-branch=main');
    git(work, 'add', '-A');
    git(work, 'commit', '--quiet', '-m', 'module');
    mkdirSync(join(root, 'remotes', 'voxpupuli'), { recursive: true });
    git(root, 'clone', '--quiet', '--bare', work, join(root, 'remotes', 'voxpupuli', name));
  }
  return config;
}

describe('a modulesync configuration run as a fleet', () => {
  it('import-modulesync names the configuration as the template_url; fleet status plans every module at once', () => {
    const config = configurationWithRemotes((name, work) => {
      // Drift in one module: a file config_defaults.yml deletes, and an edited managed file.
      if (name === 'puppet-autofs') {
        writeFileSync(join(work, '.travis.yml'), 'language: ruby\n');
        writeFileSync(join(work, '.pmtignore'), 'edited\n');
      }
    });
    const imported = pantograph(config, ['fleet', 'import-modulesync']);
    expect(imported.status, imported.stderr).toBe(0);
    expect(imported.stderr).toContain('note: template_url: .: ');
    expect(readFileSync(join(config, 'fleet.yml'), 'utf8')).toContain('template_url: .\n');
    expect(loadFleet(join(config, 'fleet.yml')).templateUrl).toBe(config);

    const status = pantograph(config, ['--format', 'json', 'fleet', 'status']);
    const report = JSON.parse(status.stdout);
    const byName = Object.fromEntries(
      report.repositories.map((r: { name: string }) => [r.name, r]),
    ) as Record<string, { result: string; files: { path: string; state: string }[]; lock?: string }>;
    // In line with the configuration, but with no .pantograph.lock yet: apply would commit one.
    expect(byName['puppet-archive']).toMatchObject({ result: 'drift', files: [], lock: 'to-create' });
    expect(byName['puppet-autofs']?.result).toBe('drift');
    expect(byName['puppet-autofs']?.files.map((f) => [f.path, f.state]).sort()).toEqual([
      ['.pmtignore', 'adopt'],
      ['.travis.yml', 'delete'],
    ]);
    expect(status.status).toBe(1);
  });

  it('fleet apply commits what msync update would on the work branch, and the module is then in line', () => {
    const config = configurationWithRemotes((name, work) => {
      if (name === 'puppet-autofs') writeFileSync(join(work, '.travis.yml'), 'language: ruby\n');
    });
    expect(pantograph(config, ['fleet', 'import-modulesync']).status).toBe(0);
    const applied = pantograph(config, ['--format', 'json', 'fleet', 'apply']);
    expect(applied.status, applied.stdout).toBe(0);
    const clone = join(config, 'modules', 'puppet-autofs');
    expect(existsSync(join(clone, '.travis.yml'))).toBe(false);
    expect(git(clone, 'rev-parse', '--abbrev-ref', 'HEAD').trim()).toBe('modulesync');
    expect(git(clone, 'log', '-1', '--format=%s').trim()).toBe('Update from voxpupuli modulesync_config');
    // The lock committed names the configuration relative to the module (the fleet file's `template_url:
    // .`, from <config>/modules/puppet-autofs), not as a path of this machine.
    const lock = JSON.parse(readFileSync(join(clone, '.pantograph.lock'), 'utf8'));
    expect(lock.sources).toEqual([{ type: 'filesystem', location: '../..' }]);
    // The module's .sync.yml is input, never rewritten with the fleet's V2 overrides.
    expect(readFileSync(join(clone, '.sync.yml'), 'utf8')).toBe(
      readFileSync(join(FIXTURES, 'modules', 'puppet-autofs', '.sync.yml'), 'utf8'),
    );
    const again = pantograph(config, ['--format', 'json', 'fleet', 'apply', '--fresh']);
    const records = JSON.parse(again.stdout).repositories as { name: string; result: string }[];
    expect(records.map((r) => [r.name, r.result])).toEqual([
      ['puppet-archive', 'in-line'],
      ['puppet-autofs', 'in-line'],
    ]);
  });

  it('a first apply says the lock file it created, in the table, the progress lines and the JSON report alike', () => {
    // puppet-archive is in line with the configuration: its first apply adds .pantograph.lock alone.
    const drift = (name: string, work: string) => {
      if (name === 'puppet-autofs') writeFileSync(join(work, '.travis.yml'), 'language: ruby\n');
    };
    const text = configurationWithRemotes(drift);
    expect(pantograph(text, ['fleet', 'import-modulesync']).status).toBe(0);
    const applied = pantograph(text, ['fleet', 'apply']);
    expect(applied.status, applied.stderr).toBe(0);
    expect(applied.stdout).toMatch(/^puppet-archive +applied +0 \+ \.pantograph\.lock created +modulesync@/m);
    expect(applied.stdout).toMatch(/^puppet-autofs +applied +1 \+ \.pantograph\.lock created +modulesync@/m);
    // In the order the repositories finish.
    expect(applied.stderr).toMatch(
      /^\[\d\/2\] puppet-archive: applied \(no file changed; \.pantograph\.lock created\)$/m,
    );
    expect(applied.stderr).toMatch(
      /^\[\d\/2\] puppet-autofs: applied \(1 file; \.pantograph\.lock created\)$/m,
    );
    const archive = join(text, 'modules', 'puppet-archive');
    expect(git(archive, 'show', '--name-only', '--format=', 'HEAD')).toBe('.pantograph.lock');

    const json = configurationWithRemotes(drift);
    expect(pantograph(json, ['fleet', 'import-modulesync']).status).toBe(0);
    const report = JSON.parse(pantograph(json, ['--format', 'json', 'fleet', 'apply']).stdout);
    const records = report.repositories as { name: string }[];
    expect(
      records.map(({ name, result, files, lock, committed }: Record<string, unknown>) => ({
        name,
        result,
        files,
        lock,
        committed,
      })),
    ).toEqual([
      { name: 'puppet-archive', result: 'applied', files: [], lock: 'created', committed: true },
      {
        name: 'puppet-autofs',
        result: 'applied',
        files: [{ path: '.travis.yml', state: 'delete' }],
        lock: 'created',
        committed: true,
      },
    ]);
    // Run again: nothing to do, and nothing said of the lock.
    const again = JSON.parse(pantograph(json, ['--format', 'json', 'fleet', 'apply', '--fresh']).stdout);
    for (const r of again.repositories) expect(r).not.toHaveProperty('lock');
    const textAgain = pantograph(text, ['fleet', 'apply']);
    expect(textAgain.stdout).not.toContain('.pantograph.lock');
  });

  it('status and apply --noop say the lock a first apply would commit, and exit as for drift until it is merged', () => {
    const config = configurationWithRemotes();
    expect(pantograph(config, ['fleet', 'import-modulesync']).status).toBe(0);
    for (const args of [
      ['fleet', 'status'],
      ['fleet', 'apply', '--noop'],
    ]) {
      const r = pantograph(config, args);
      expect(r.status, r.stderr).toBe(args[1] === 'status' ? 1 : 0);
      expect(r.stdout).toMatch(/^puppet-archive +drift +0 \+ \.pantograph\.lock to create *$/m);
      expect(r.stderr).toMatch(
        /^\[\d\/2\] puppet-archive: drift \(no file to change; \.pantograph\.lock to create\)$/m,
      );
      const json = JSON.parse(pantograph(config, ['--format', 'json', ...args]).stdout);
      expect(json.repositories.map((x: Record<string, unknown>) => [x.name, x.result, x.lock])).toEqual([
        ['puppet-archive', 'drift', 'to-create'],
        ['puppet-autofs', 'drift', 'to-create'],
      ]);
    }
    // What apply then does is what they said.
    const applied = pantograph(config, ['fleet', 'apply', '--push']);
    expect(applied.stdout).toMatch(/^puppet-archive +applied +0 \+ \.pantograph\.lock created /m);
    // The work branch has it now; the base does not until the pull request is merged.
    const noop = pantograph(config, ['fleet', 'apply', '--noop']);
    expect(noop.stdout).not.toContain('.pantograph.lock');
    expect(pantograph(config, ['fleet', 'status']).status).toBe(1);
    for (const name of ['puppet-archive', 'puppet-autofs']) {
      const bare = join(resolve(config, '..'), 'remotes', 'voxpupuli', name);
      git(bare, 'update-ref', 'refs/heads/main', 'refs/heads/modulesync'); // the pull request merged
    }
    const merged = pantograph(config, ['fleet', 'status']);
    expect(merged.status, merged.stdout).toBe(0);
    expect(merged.stdout).not.toContain('.pantograph.lock');
    expect(merged.stdout).toContain('2 repositories: 2 in-line');
  });

  it('a path repository whose lock alone changes is said so, before (status) and after (apply)', () => {
    const config = configurationWithRemotes();
    const root = resolve(config, '..');
    const local = join(root, 'local-archive');
    git(root, 'clone', '--quiet', join(root, 'remotes', 'voxpupuli', 'puppet-archive'), local);
    expect(pantograph(config, ['fleet', 'import-modulesync']).status).toBe(0);
    const file = join(config, 'fleet.yml');
    writeFileSync(
      file,
      `${readFileSync(file, 'utf8')}  - { name: local, path: ../local-archive, forge_project: voxpupuli/puppet-archive }\n`,
    );
    const run = (...args: string[]) => pantograph(config, ['fleet', ...args, '--filter', 'local']);
    const json = (...args: string[]) =>
      JSON.parse(pantograph(config, ['--format', 'json', 'fleet', ...args, '--filter', 'local']).stdout)
        .repositories[0];

    expect(run('status').stdout).toMatch(/^local +drift +0 \+ \.pantograph\.lock to create *$/m);
    const created = run('apply');
    expect(created.stdout).toMatch(/^local +applied +0 \+ \.pantograph\.lock created *$/m);
    expect(git(local, 'status', '--porcelain')).toBe('?? .pantograph.lock');
    expect(run('status').status).toBe(0);

    // A lock an older Pantograph wrote: apply would rewrite it and nothing else.
    const lockFile = join(local, '.pantograph.lock');
    const lock = readFileSync(lockFile, 'utf8');
    writeFileSync(lockFile, lock.replace(/"engineVersion": "[^"]*"/, '"engineVersion": "0.0.1"'));
    const status = run('status');
    expect(status.status).toBe(1);
    expect(status.stdout).toMatch(/^local +drift +0 \+ \.pantograph\.lock to bring up to date *$/m);
    expect(status.stderr).toContain('local: drift (no file to change; .pantograph.lock to bring up to date)');
    expect(json('status')).toMatchObject({ result: 'drift', files: [], lock: 'to-update' });
    expect(json('apply', '--noop')).toMatchObject({ result: 'drift', files: [], lock: 'to-update' });
    expect(readFileSync(lockFile, 'utf8')).not.toBe(lock); // noop wrote nothing
    const updated = run('apply');
    expect(updated.stdout).toMatch(/^local +applied +0 \+ \.pantograph\.lock brought up to date *$/m);
    expect(updated.stderr).toContain('local: applied (no file changed; .pantograph.lock brought up to date)');
    expect(readFileSync(lockFile, 'utf8')).toBe(lock);
    expect(json('status')).toMatchObject({ result: 'in-line', files: [] });
    expect(json('status')).not.toHaveProperty('lock');
  });

  it("a PDK module in the fleet is refused at its metadata.json template-url, not rendered as msync's", () => {
    const config = configurationWithRemotes();
    const root = resolve(config, '..');
    const work = join(root, 'work', 'motd');
    cpSync(resolve(FIXTURES, '../real-modules/puppetlabs-motd'), work, { recursive: true });
    git(work, 'init', '--quiet', '--initial-branch=main');
    git(work, 'add', '-A');
    git(work, 'commit', '--quiet', '-m', 'module');
    git(root, 'clone', '--quiet', '--bare', work, join(root, 'remotes', 'motd.git'));
    expect(pantograph(config, ['fleet', 'import-modulesync']).status).toBe(0);
    const file = join(config, 'fleet.yml');
    writeFileSync(
      file,
      `${readFileSync(file, 'utf8')}  - { name: motd, url: ${join(root, 'remotes', 'motd.git')} }\n`,
    );
    const r = pantograph(config, ['--format', 'json', 'fleet', 'apply', '--noop']);
    const records = JSON.parse(r.stdout).repositories as {
      name: string;
      result: string;
      error?: { code: string; message: string; file: string; line: number; hint: string };
    }[];
    const motd = records.find((x) => x.name === 'motd')!;
    expect(motd).toMatchObject({
      result: 'failed',
      error: { code: 'FLEET_MIXED', file: join(config, 'modules', 'motd', 'metadata.json'), line: 106 },
    });
    expect(motd.error!.message).toContain(
      'this is a PDK module (its metadata.json names the V1 templates https://github.com/puppetlabs/pdk-templates.git#main)',
    );
    expect(motd.error!.hint).toContain('a fleet has one template_url');
    // The modulesync modules go on (each with its first lock to create).
    expect(records.filter((x) => x.name !== 'motd').map((x) => x.result)).toEqual(['drift', 'drift']);
  });

  it("a module's own template_sources, which template_url rendering cannot take, fail it at them in fleet.yml", () => {
    const config = configurationWithRemotes();
    expect(pantograph(config, ['fleet', 'import-modulesync']).status).toBe(0);
    const file = join(config, 'fleet.yml');
    const text = readFileSync(file, 'utf8').replace(
      '    forge_project: voxpupuli/puppet-archive\n',
      '    forge_project: voxpupuli/puppet-archive\n    template_sources: [default]\n',
    );
    writeFileSync(file, text);
    const line = text.split('\n').findIndex((l) => l.includes('template_sources')) + 1;
    const r = pantograph(config, ['--format', 'json', 'fleet', 'apply']);
    expect(r.status).toBe(1);
    const [archive, autofs] = JSON.parse(r.stdout).repositories;
    expect(archive).toMatchObject({
      name: 'puppet-archive',
      result: 'failed',
      error: { code: 'FLEET_INVALID', file, line, column: 23 },
    });
    expect(archive.error.hint).toContain('remove `template_sources` from its entry');
    expect(autofs).toMatchObject({ name: 'puppet-autofs', result: 'applied' });
    const clone = join(config, 'modules', 'puppet-archive');
    expect(git(clone, 'rev-parse', 'HEAD')).toBe(git(clone, 'rev-parse', 'origin/main'));
  });

  it('without template_url, a modulesync module is refused at its .sync.yml with the way to name the configuration', () => {
    const config = configurationWithRemotes();
    expect(pantograph(config, ['fleet', 'import-modulesync']).status).toBe(0);
    const file = join(config, 'fleet.yml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('template_url: .\n', ''));
    unlinkSync(join(config, 'config_defaults.yml'));
    const r = pantograph(config, ['--format', 'json', 'fleet', 'status']);
    const record = JSON.parse(r.stdout).repositories[0];
    expect(record).toMatchObject({
      result: 'failed',
      error: { code: 'SYNC_MODULESYNC', line: 2, column: 1 },
    });
    expect(record.error.hint).toContain(
      'set `template_url:` in the fleet file to the modulesync configuration',
    );
  });
});
