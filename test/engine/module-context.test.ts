/**
 * The Puppet module a file belongs to (src/engine/module-context.ts), as the language server and
 * `epp render` find it: by the nearest metadata.json's `name`, whatever the checkout's folder is called.
 * A metadata.json that says no module name is no module: its templates are checked as loose files.
 */
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { moduleContextOf, moduleShortName } from '../../src/engine/module-context.js';
import { removeTempDirs, tempTree } from '../helpers/fs.js';

afterAll(() => removeTempDirs());

describe('the module a file is in', () => {
  it('is the nearest metadata.json with a name, by that name, with its fixtures and its neighbours', () => {
    const dir = tempTree({
      'puppet-web/metadata.json': JSON.stringify({ name: 'acme/web' }),
      'puppet-web/templates/conf/site.epp': '',
      'puppet-web/spec/fixtures/modules/inner/metadata.json': JSON.stringify({ name: 'acme-inner' }),
      'puppet-web/spec/fixtures/modules/inner/templates/x.epp': '',
    });
    const root = join(dir, 'puppet-web');
    expect(moduleContextOf(join(root, 'templates', 'conf', 'site.epp'))).toEqual({
      name: 'web',
      dir: root,
      modulePath: [{ name: 'web', dir: root }, join(root, 'spec', 'fixtures', 'modules'), dir],
    });
    const inner = join(root, 'spec', 'fixtures', 'modules', 'inner');
    expect(moduleContextOf(join(inner, 'templates', 'x.epp'))?.name).toBe('inner');
  });

  it('is none when the metadata.json is broken, has no name, or no module name Puppet takes', () => {
    const dir = tempTree({
      'broken/metadata.json': '{ "name": ',
      'broken/templates/a.epp': '',
      'nameless/metadata.json': JSON.stringify({ version: '1.0.0' }),
      'nameless/templates/a.epp': '',
      'list/metadata.json': '[]',
      'list/templates/a.epp': '',
      'bad-name/metadata.json': JSON.stringify({ name: 'acme-Web2!' }),
      'bad-name/templates/a.epp': '',
      'loose/a.epp': '',
    });
    for (const folder of ['broken', 'nameless', 'list', 'bad-name']) {
      expect(moduleContextOf(join(dir, folder, 'templates', 'a.epp')), folder).toBeUndefined();
    }
    expect(moduleContextOf(join(dir, 'loose', 'a.epp'))).toBeUndefined();
  });

  it("reads the editor's text before the disk", () => {
    const dir = tempTree({ 'm/templates/a.epp': '' });
    const unsaved = (path: string) =>
      path === join(dir, 'm', 'metadata.json') ? JSON.stringify({ name: 'acme-unsaved' }) : undefined;
    expect(moduleContextOf(join(dir, 'm', 'templates', 'a.epp'), unsaved)?.name).toBe('unsaved');
  });

  it('takes the module name of a Forge name as PDK does', () => {
    expect(['puppetlabs-apache', 'puppet/redis', 'apache'].map(moduleShortName)).toEqual([
      'apache',
      'redis',
      'apache',
    ]);
  });
});
