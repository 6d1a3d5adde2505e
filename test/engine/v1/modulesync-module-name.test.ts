/**
 * Outside a fleet, a module checked out under another directory name (`~/src/autofs`, a CI workspace) is
 * still the module managed_modules.yml names: found by metadata.json's `name` or its git remote, as msync
 * names it (its Rakefile renders `GCGConfig.project` from that name). voxpupuli's configuration 10.8.0 and
 * puppet-autofs, through the CLI.
 */
import { cpSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { run } from '../../cli/cli-helpers.js';
import { git } from '../../fleet/fleet-helpers.js';
import { removeTempDirs, tempDir } from '../../helpers/fs.js';

afterAll(removeTempDirs);

const FIXTURES = resolve(import.meta.dirname, '../../fixtures/modulesync');
const CONFIG = join(FIXTURES, 'modulesync_config-10.8.0');

function configCopy(): string {
  const config = join(tempDir('msync-config-'), 'config');
  cpSync(CONFIG, config, { recursive: true });
  return config;
}

function checkout(dir: string): string {
  const root = join(tempDir('msync-name-'), dir);
  cpSync(join(FIXTURES, 'modules', 'puppet-autofs'), root, { recursive: true });
  return root;
}

describe("a modulesync module's name outside a fleet", () => {
  it('is found by metadata.json when the directory has another name, with a note; the Rakefile is in line', async () => {
    const root = checkout('autofs');
    const r = await run(root, 'status', '--template-url', CONFIG);
    expect(r.stderr).toContain(
      "note: the module is 'puppet-autofs' of managed_modules.yml (found by its metadata.json; the directory is 'autofs')",
    );
    expect(r.stdout).not.toContain('Rakefile');
    expect(r.code, r.stdout).toBe(0);
  });

  it("is found by the git remote's name when metadata.json names it otherwise", async () => {
    const root = checkout('work');
    const file = join(root, 'metadata.json');
    writeFileSync(
      file,
      readFileSync(file, 'utf8').replace('"name": "puppet-autofs"', '"name": "acme-autofs"'),
    );
    git(root, 'init', '--quiet', '--initial-branch=main');
    git(root, 'remote', 'add', 'origin', 'git@github.com:voxpupuli/puppet-autofs.git');
    const r = await run(root, 'status', '--template-url', CONFIG);
    expect(r.stderr).toContain(
      "note: the module is 'puppet-autofs' of managed_modules.yml (found by its git remote",
    );
    expect(r.stdout).not.toContain('Rakefile');
  });

  it("reads modulesync.yml's managed_modules_conf on its first line after a byte order mark", async () => {
    // Another list file, named by a modulesync.yml saved with a BOM (msync's YAML reader skips it).
    const config = join(tempDir('msync-config-'), 'config');
    cpSync(CONFIG, config, { recursive: true });
    const list = readFileSync(join(config, 'managed_modules.yml'), 'utf8');
    writeFileSync(join(config, 'managed_modules.yml'), '---\n- puppet-unrelated\n');
    writeFileSync(join(config, 'our_modules.yml'), list);
    const settings = readFileSync(join(config, 'modulesync.yml'), 'utf8').replace(/^---\n/, '');
    writeFileSync(join(config, 'modulesync.yml'), `\uFEFFmanaged_modules_conf: our_modules.yml\n${settings}`);
    const r = await run(checkout('autofs'), 'status', '--template-url', config);
    expect(r.stderr).toContain(
      "note: the module is 'puppet-autofs' of our_modules.yml (found by its metadata.json; the directory is 'autofs')",
    );
    expect(r.code, r.stdout).toBe(0);
  });

  it('reads managed_modules_conf as YAML: a symbol key, a quoted name with a space, a flow mapping', async () => {
    const config = configCopy();
    const list = readFileSync(join(config, 'managed_modules.yml'), 'utf8');
    writeFileSync(join(config, 'managed_modules.yml'), '---\n- puppet-unrelated\n');
    writeFileSync(join(config, 'our modules.yml'), list);
    const settings = readFileSync(join(config, 'modulesync.yml'), 'utf8');
    for (const line of [
      ':managed_modules_conf: "our modules.yml"',
      "{managed_modules_conf: 'our modules.yml'}",
    ]) {
      const rest = line.startsWith('{') ? '' : settings.replace(/^---\n/, '');
      writeFileSync(join(config, 'modulesync.yml'), `---\n${line}\n${rest}`);
      const r = await run(checkout('autofs'), 'status', '--template-url', config);
      expect(r.stderr, line).toContain(
        "note: the module is 'puppet-autofs' of our modules.yml (found by its metadata.json; the directory is 'autofs')",
      );
    }
  });

  it("does not follow a managed_modules_conf out of the configuration's directory, by path or by link", async () => {
    // The configuration may come from a git source: the list it names must be its own.
    const config = configCopy();
    const list = readFileSync(join(config, 'managed_modules.yml'), 'utf8');
    const outside = join(tempDir('msync-outside-'), 'list.yml');
    writeFileSync(outside, list);
    writeFileSync(join(config, 'managed_modules.yml'), '---\n- puppet-unrelated\n');
    symlinkSync(outside, join(config, 'linked.yml'));
    const settings = readFileSync(join(config, 'modulesync.yml'), 'utf8').replace(/^---\n/, '');
    for (const given of [relative(config, outside), outside, 'linked.yml']) {
      writeFileSync(join(config, 'modulesync.yml'), `---\nmanaged_modules_conf: '${given}'\n${settings}`);
      const r = await run(checkout('autofs'), 'status', '--template-url', config);
      expect(r.stderr, given).toContain(
        `note: modulesync.yml's managed_modules_conf '${given}' leaves the configuration's directory: not read, so the module is named by its directory, 'autofs'`,
      );
      expect(r.stderr, given).not.toContain('found by its metadata.json');
    }
  });

  it('says so when the list does not parse, and names the module by its directory', async () => {
    const config = configCopy();
    writeFileSync(join(config, 'managed_modules.yml'), '---\n- puppet-autofs\n- [unclosed\n');
    const r = await run(checkout('autofs'), 'status', '--template-url', config);
    expect(r.stderr).toMatch(
      /note: managed_modules\.yml is not read: it does not parse: .* \(line \d+\), so the module is named by its directory, 'autofs'/,
    );
  });

  it('stays the directory name, with no note, when the directory is the listed name or nothing is listed', async () => {
    const listed = await run(checkout('puppet-autofs'), 'status', '--template-url', CONFIG);
    expect(listed.stderr).not.toContain('note: the module is');
    expect(listed.code, listed.stdout).toBe(0);
    const root = checkout('elsewhere');
    const file = join(root, 'metadata.json');
    writeFileSync(
      file,
      readFileSync(file, 'utf8').replace('"name": "puppet-autofs"', '"name": "acme-other"'),
    );
    const unlisted = await run(root, 'status', '--template-url', CONFIG);
    expect(unlisted.stderr).not.toContain('note: the module is');
    // msync would name it 'elsewhere': its Rakefile says so, and differs from the module's.
    expect(unlisted.stdout).toContain('Rakefile');
  });
});
