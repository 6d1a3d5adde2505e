/**
 * `pantograph new` in a PDK module not yet converted (a V1 `.sync.yml`): the object templates of its V1
 * template repository (metadata.json's `template-url`, as PDK reads it), `object_templates/*.erb`, rendered
 * by the system Ruby as PDK renders them; the default EPP templates when that repository is not one we may
 * run (an untrusted git URL) (issue 17, item 5). Real files, real Ruby, the built command.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from '../helpers/fs.js';

const root = resolve(import.meta.dirname, '../..');
const bin = join(root, 'dist/cli/bin.cjs');
const fixtures = join(root, 'test/fixtures');

afterEach(() => removeTempDirs());

/** puppetlabs-ntp as it is (V1 .sync.yml), with metadata.json's template-url set to `url`. */
function v1Module(url: string): string {
  const dir = tempDir('pantograph-v1-new-');
  cpSync(join(fixtures, 'real-modules/puppetlabs-ntp'), dir, { recursive: true });
  const metadata = JSON.parse(readFileSync(join(dir, 'metadata.json'), 'utf8')) as Record<string, unknown>;
  writeFileSync(join(dir, 'metadata.json'), JSON.stringify({ ...metadata, 'template-url': url }, null, 2));
  return dir;
}

/** An organisation's fork of pdk-templates 3.5.1 whose class template says so. */
function fork(): string {
  const dir = tempDir('pantograph-fork-');
  cpSync(join(fixtures, 'pdk-templates-3.5.1'), dir, { recursive: true });
  const file = join(dir, 'object_templates/class.erb');
  writeFileSync(
    file,
    readFileSync(file, 'utf8').replace('# @summary A short summary', '# @summary ACME: a short summary'),
  );
  return dir;
}

function run(cwd: string, env: NodeJS.ProcessEnv, ...args: string[]) {
  return spawnSync(process.execPath, [bin, ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...env, NO_COLOR: '1' },
  });
}

describe('pantograph new in a V1 module', () => {
  it("renders the V1 repository's ERB object templates, as PDK does, and the same bytes as the EPP ones", () => {
    const repository = fork();
    const module = v1Module(`file://${repository}#main`);
    const r = run(module, process.env, 'new', 'class', 'config');
    expect(r.status, r.stderr).toBe(0);
    expect(readFileSync(join(module, 'manifests/config.pp'), 'utf8')).toMatch(
      /^# @summary ACME: a short summary/,
    );
    // Kinds the fork left alone: its ERB gives what the default EPP templates give.
    const plain = v1Module('https://git.invalid/pdk-templates.git#main');
    for (const args of [
      ['task', 'restart', '--description', 'Restart it'],
      ['provider', 'my_box'],
      ['fact', 'my_fact'],
    ]) {
      expect(run(module, process.env, 'new', ...args).status).toBe(0);
      expect(run(plain, process.env, 'new', ...args).status).toBe(0);
    }
    for (const path of [
      'tasks/restart.sh',
      'tasks/restart.json',
      'lib/puppet/type/my_box.rb',
      'lib/puppet/provider/my_box/my_box.rb',
      'spec/unit/puppet/type/my_box_spec.rb',
      'spec/unit/puppet/provider/my_box/my_box_spec.rb',
      'lib/facter/my_fact.rb',
      'spec/unit/facter/my_fact_spec.rb',
    ]) {
      expect(readFileSync(join(module, path), 'utf8'), path).toBe(readFileSync(join(plain, path), 'utf8'));
    }
  });

  it('an untrusted git repository is not run (nor fetched): the default EPP object templates write the class', () => {
    const module = v1Module('https://git.invalid/pdk-templates.git#main');
    const r = run(module, process.env, 'new', 'class', 'config');
    expect(r.status, r.stderr).toBe(0);
    expect(readFileSync(join(module, 'manifests/config.pp'), 'utf8')).toMatch(
      /^# @summary A short summary of the purpose of this class/,
    );
    // A fork's maintainer is told which templates wrote the files, and how to have the fork's own.
    expect(r.stderr).toBe(
      "note: the V1 template repository https://git.invalid/pdk-templates.git#main (metadata.json) runs Ruby code (its ERB templates), and it is not trusted: its object templates did not run, and the default ones (pdk-templates 3.5.1's) wrote the files; if you trust it, run again with --trust to use its own\n",
    );
  });

  it("puppetlabs' own pdk-templates untrusted: no note, its object templates are the default ones' bytes", () => {
    const module = v1Module('https://github.com/puppetlabs/pdk-templates.git#main');
    const r = run(module, process.env, 'new', 'defined_type', 'peer');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    expect(existsSync(join(module, 'manifests/peer.pp'))).toBe(true);
  });

  it("PDK's built-in templates (pdk-default, what `pdk new module` writes; a packaged PDK's path): the default ones write the files", () => {
    for (const url of [
      'pdk-default#3.1.0',
      'file:///opt/puppetlabs/pdk/share/cache/pdk-templates.git#2.7.1',
    ]) {
      const module = v1Module(url);
      const plain = v1Module('https://github.com/puppetlabs/pdk-templates.git#main');
      const r = run(module, process.env, 'new', 'class', 'config');
      expect(r.status, r.stderr).toBe(0);
      expect(r.stderr).toBe('');
      expect(run(plain, process.env, 'new', 'class', 'config').status).toBe(0);
      for (const path of ['manifests/config.pp', 'spec/classes/config_spec.rb']) {
        expect(readFileSync(join(module, path), 'utf8'), path).toBe(readFileSync(join(plain, path), 'utf8'));
      }
    }
  });

  it('without Ruby, says what is missing and writes nothing', () => {
    const path = tempDir('pantograph-path-');
    const git = spawnSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).stdout.trim();
    if (git) symlinkSync(git, join(path, 'git'));
    const module = v1Module(`file://${fork()}#main`);
    const r = run(module, { ...process.env, PATH: path, PANTOGRAPH_RUBY: '' }, 'new', 'class', 'config');
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('[V1_RUBY_MISSING]');
    expect(existsSync(join(module, 'manifests/config.pp'))).toBe(false);
    expect(existsSync(join(module, 'spec/classes/config_spec.rb'))).toBe(false);
  });
});

describe('pantograph new with a broken V1 object template', () => {
  it("says which template failed, at its line, with Ruby's error, and writes nothing", () => {
    const repository = fork();
    writeFileSync(
      join(repository, 'object_templates/class_spec.erb'),
      "require 'spec_helper'\n<%= no_such_value.upcase %>\n",
    );
    const module = v1Module(`file://${repository}#main`);
    const r = run(module, process.env, 'new', 'class', 'config');
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(`${join(repository, 'object_templates/class_spec.erb')}:2:1: error: `);
    expect(r.stderr).toContain("NoMethodError: undefined method `upcase' for nil");
    expect(r.stderr).toContain('[OBJECT_TEMPLATE]');
    // The class's own file rendered fine, but nothing is written unless every file renders.
    expect(existsSync(join(module, 'manifests/config.pp'))).toBe(false);
    expect(existsSync(join(module, 'spec/classes/config_spec.rb'))).toBe(false);
  });
});
