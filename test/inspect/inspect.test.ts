import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { type InspectCall, type InspectTree, inspect } from '../../src/engine/inspect.js';
import { inspect as inspectFromIndex, loadProject } from '../../src/index.js';
import { run, runJson } from '../cli/cli-helpers.js';
import { removeTempDirs, snapshotDir, tempTree } from '../helpers/fs.js';

afterEach(() => removeTempDirs());

const REPO = fileURLToPath(new URL('../fixtures/nested-repo', import.meta.url));
const SITE = join(REPO, 'site');
const CONFIG = join(SITE, 'files/config.yml.epp');
const SECTION = join(SITE, 'partials/section.epp');
const LINE = join(SITE, 'partials/line.epp');
const LEAF = join(SITE, 'partials/leaf.epp');

function project(extra = ''): string {
  return tempTree({
    '.sync.yml': `pdk_template:
  version: 2
  template_sources:
    - type: filesystem
      location: ${REPO}
  templates: [site]
site:
  app_name: shop
${extra}`,
  });
}

function call(tree: InspectTree, ...keys: string[]): InspectCall {
  let nested = tree.Templates.site?.Files['files/config.yml.epp']?.NestedParameters;
  let found: InspectCall | undefined;
  for (const key of keys) {
    found = nested?.[key];
    nested = found?.NestedParameters;
  }
  if (!found) throw new Error(`no call site ${keys.join(' > ')}`);
  return found;
}

describe('inspect(project)', () => {
  it('describes the project and each applied template with its source', async () => {
    const root = project();
    const tree = await inspect(await loadProject(root));
    expect(tree.Project).toEqual({ Name: root.split('/').pop(), Root: root, IsNew: true });
    expect(Object.keys(tree.Templates)).toEqual(['site', 'team']);
    const { Parameters: _settings, Files, ...site } = tree.Templates.site!;
    expect(site).toEqual({
      Type: 'module',
      Description: 'A site configuration rendered through nested partials.',
      Title: 'Site',
      Version: '1.0.0',
      Source: { Index: 0, Type: 'filesystem', Location: REPO },
    });
    expect(Object.keys(Files)).toEqual(['files/config.yml.epp']);
  });

  it('gives every setting its type, description, default, value and origin, and marks required ones', async () => {
    const root = project();
    const tree = await inspect(await loadProject(root));
    expect(tree.Templates.site?.Parameters).toEqual({
      debug: {
        Type: 'boolean',
        Description: 'Log everything.',
        Default: false,
        Origin: { Layer: 'default' },
      },
      port: {
        Type: 'integer',
        Description: 'Port to listen on.',
        Default: 8080,
        Origin: { Layer: 'default' },
      },
      admins: {
        Type: 'array of string',
        Description: 'People who administer the site.',
        Default: ['alice'],
        Origin: { Layer: 'shared', Detail: 'team' },
      },
      app_name: {
        Type: 'string',
        Description: 'Name of the application.',
        Value: 'shop',
        Origin: { Layer: 'project', File: join(root, '.sync.yml'), Line: 8, Column: 13 },
      },
      contact: {
        Type: 'string',
        Description: 'Who to call when the site is down.',
        Origin: null,
        Required: true,
      },
    });
  });

  it("gives a file's declared parameters their Puppet types and the settings' values", async () => {
    const root = project('  port: 9090\n');
    const tree = await inspect(await loadProject(root));
    const file = tree.Templates.site?.Files['files/config.yml.epp'];
    expect(file).toMatchObject({
      Path: 'config.yml',
      Kind: 'file',
      Template: true,
      Rendered: true,
      File: CONFIG,
      Description: "The application's configuration.",
    });
    expect(file?.Parameters.port).toEqual({
      Type: 'Integer',
      Description: 'Port to listen on.',
      Default: 8080,
      Value: 9090,
      Origin: { Layer: 'project', File: join(root, '.sync.yml'), Line: 9, Column: 9 },
    });
    expect(file?.Parameters.admins).toEqual({
      Type: 'Array[String]',
      Description: 'People who administer the site.',
      Default: ['alice'],
      Origin: { Layer: 'shared', Detail: 'team' },
    });
    expect(Object.keys(file?.Parameters ?? {})).toEqual(['app_name', 'port', 'admins', 'debug']);
  });

  it('lists the settings a file without parameters reads', async () => {
    const tree = await inspect(await loadProject(project()));
    expect(tree.Templates.team?.Files['files/TEAM.md.epp']?.Parameters).toEqual({
      team_name: { Type: 'string', Description: null, Default: 'core', Origin: { Layer: 'default' } },
      members: { Type: 'array', Description: null, Default: ['alice', 'bob'], Origin: { Layer: 'default' } },
    });
  });

  it('shows one partial called from two places at both, each with its own values', async () => {
    const tree = await inspect(await loadProject(project()));
    const sites = tree.Templates.site?.Files['files/config.yml.epp']?.NestedParameters ?? {};
    expect(Object.keys(sites)).toEqual(['partials/section.epp@5:5', 'partials/section.epp@6:5']);
    const first = call(tree, 'partials/section.epp@5:5');
    const second = call(tree, 'partials/section.epp@6:5');
    expect({ ...first, Parameters: undefined, NestedParameters: undefined }).toEqual({
      Type: 'partials/section.epp',
      Description: 'A titled section.',
      File: SECTION,
      Line: 5,
      Column: 5,
      Parameters: undefined,
      NestedParameters: undefined,
    });
    expect(first.Parameters).toEqual({
      title: {
        Type: 'String',
        Description: null,
        Value: 'main',
        Origin: { Layer: 'caller', File: CONFIG, Line: 5, Column: 35 },
      },
      body: {
        Type: 'String',
        Description: null,
        Value: null,
        Origin: { Layer: 'caller', Detail: '$app_name', File: CONFIG, Line: 5, Column: 54 },
      },
      level: {
        Type: 'Integer',
        Description: null,
        Default: 1,
        Origin: { Layer: 'epp_default', Detail: '1' },
      },
    });
    expect(second.Line).toBe(6);
    expect(second.Parameters.title?.Value).toBe('admins');
    expect(second.Parameters.body?.Origin).toEqual({
      Layer: 'caller',
      Detail: "$admins.join(', ')",
      File: CONFIG,
      Line: 6,
      Column: 56,
    });
    expect(second.Parameters.level).toEqual({
      Type: 'Integer',
      Description: null,
      Default: 1,
      Value: 2,
      Origin: { Layer: 'caller', File: CONFIG, Line: 6, Column: 86 },
    });
  });

  it('follows epp() calls three deep', async () => {
    const tree = await inspect(await loadProject(project()));
    const line = call(tree, 'partials/section.epp@6:5', 'partials/line.epp@3:5');
    expect(line).toMatchObject({
      Type: 'partials/line.epp',
      File: LINE,
      Line: 3,
      Column: 5,
      Description: null,
    });
    expect(line.Parameters.indent).toEqual({
      Type: 'Integer',
      Description: null,
      Default: 0,
      Value: null,
      Origin: { Layer: 'caller', Detail: '$level', File: SECTION, Line: 3, Column: 63 },
    });
    const leaf = call(tree, 'partials/section.epp@6:5', 'partials/line.epp@3:5', 'partials/leaf.epp@2:5');
    expect(leaf).toEqual({
      Type: 'partials/leaf.epp',
      Description: 'One line of output.',
      File: LEAF,
      Line: 2,
      Column: 5,
      Parameters: {
        text: {
          Type: 'String',
          Description: null,
          Value: null,
          Origin: { Layer: 'caller', Detail: '$text', File: LINE, Line: 2, Column: 32 },
        },
        marker: {
          Type: 'String',
          Description: null,
          Default: '*',
          Value: '-',
          Origin: { Layer: 'caller', File: LINE, Line: 2, Column: 49 },
        },
      },
      NestedParameters: {},
    });
  });

  it('is exported from the package and returns what `validate --show-nested --format json` prints', async () => {
    const root = project();
    const before = snapshotDir(root);
    const tree = await inspectFromIndex(await loadProject(root));
    const { code, json } = await runJson(root, 'validate', '--show-nested');
    expect(code).toBe(0);
    expect(json).toMatchObject({
      valid: true,
      errors: 0,
      warnings: 0,
      templates: ['site', 'team'],
      files: 2,
    });
    expect(json.nested).toEqual(JSON.parse(JSON.stringify(tree)));
    expect(snapshotDir(root)).toEqual(before);
  });
});

describe('validate --show-nested', () => {
  it('prints the tree indented, each parameter with type, default, value and origin', async () => {
    const root = project();
    const r = await run(root, 'validate', '--show-nested');
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe(`project ${root.split('/').pop()} (new)`);
    expect(lines).toContain(`  template site 1.0.0 (module, source 0: ${REPO})`);
    expect(lines).toContain('      contact: string  REQUIRED  # Who to call when the site is down.');
    expect(lines).toContain(
      '      app_name: string  value "shop"  <- project (.sync.yml:8:13)  # Name of the application.',
    );
    expect(lines).toContain('    file config.yml (files/config.yml.epp)');
    const section = lines.indexOf('      epp partials/section.epp (line 6:5)');
    expect(lines.slice(section, section + 9)).toEqual([
      '      epp partials/section.epp (line 6:5)',
      '        # A titled section.',
      '        title: String  value "admins"  <- caller (6:35)',
      "        body: String  value (known at render time)  <- caller $admins.join(', ') (6:56)",
      '        level: Integer  default 1  value 2  <- caller (6:86)',
      '        epp partials/line.epp (line 3:5)',
      '          text: String  value (known at render time)  <- caller "${title}: ${body}" (3:32)',
      '          indent: Integer  default 0  value (known at render time)  <- caller $level (3:63)',
      '          epp partials/leaf.epp (line 2:5)',
    ]);
    expect(lines.at(-2)).toBe('valid (2 templates, 2 files): 0 errors, 0 warnings');
  });

  it('still prints the tree when the project has errors, and exits 1', async () => {
    const root = project('  port: none\n');
    const { code, json } = await runJson(root, 'validate', '--show-nested');
    expect(code).toBe(1);
    const nested = json.nested as InspectTree;
    expect(nested.Templates.site?.Parameters.port?.Value).toBe('none');
    expect((json.problems as { code: string }[]).map((p) => p.code)).toEqual(['SETTINGS_INVALID']);
  });

  it('gives no tree when the project cannot be loaded', async () => {
    const root = tempTree({ '.sync.yml': 'pdk_template: { version: 3 }\n' });
    const { code, json } = await runJson(root, 'validate', '--show-nested');
    expect(code).toBe(1);
    expect(json.nested).toBeNull();
  });
});
