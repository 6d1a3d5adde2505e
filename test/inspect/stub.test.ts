import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EngineError } from '../../src/engine/errors.js';
import { stubSyncConfig } from '../../src/engine/stub.js';
import { run, runJson } from '../cli/cli-helpers.js';
import { removeTempDirs, snapshotDir, tempDir, tempTree } from '../helpers/fs.js';

// The CLI reads the default source from the environment: an empty one keeps these tests to the fixture.
const savedDefault = process.env.PANTOGRAPH_DEFAULT_SOURCE;
beforeEach(() => {
  process.env.PANTOGRAPH_DEFAULT_SOURCE = tempDir();
});
afterEach(() => {
  if (savedDefault === undefined) delete process.env.PANTOGRAPH_DEFAULT_SOURCE;
  else process.env.PANTOGRAPH_DEFAULT_SOURCE = savedDefault;
  removeTempDirs();
});

const REPO = fileURLToPath(new URL('../fixtures/nested-repo', import.meta.url));

const SITE_STUB = `# Pantograph project configuration (PDK templates version 2).
# Every setting of the chosen templates is listed, commented out with its default:
# uncomment and change what this project needs.
pdk_template:
  version: 2
  template_sources:
    - { type: filesystem, location: ${REPO} }
    - default
  templates:
    - site

# site: A site configuration rendered through nested partials.
site:
  # Log everything. (boolean)
  # debug: false
  # Port to listen on. (integer)
  # port: 8080
  # Name of the application. (string; no default)
  # app_name: ~
  # People who administer the site. (array of string; shared setting published by team)
  # admins:
  #   - alice
  # Who to call when the site is down. (string; no default)
  # contact: ~
`;

describe('pantograph init --stub', () => {
  it('prints a .sync.yml with every setting of the chosen templates commented out', async () => {
    const root = tempTree({});
    const r = await run(root, 'init', '--stub', '--stdout', '--source', REPO, '--templates', 'site');
    expect(r).toEqual({ code: 0, stdout: SITE_STUB, stderr: '' });
    expect(snapshotDir(root)).toEqual({});
  });

  it('writes only .sync.yml, which validates and whose lines can be uncommented', async () => {
    const root = tempTree({});
    const r = await run(root, 'init', '--stub', '--source', REPO, '--templates', 'site');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`wrote ${join(root, '.sync.yml')} (site)\n`);
    expect(Object.keys(snapshotDir(root))).toEqual(['.sync.yml']);
    expect(readFileSync(join(root, '.sync.yml'), 'utf8')).toBe(SITE_STUB);
    // As written, the required app_name is missing: validate says so (rendering also warns that no
    // setting has that name yet).
    const invalid = await runJson(root, 'validate');
    expect(invalid.code).toBe(1);
    expect((invalid.json.problems as { code: string }[]).map((p) => p.code)).toEqual([
      'RENDER_MISSING_PARAMETER',
      'RENDER_UNKNOWN_PARAMETER',
    ]);
    writeFileSync(join(root, '.sync.yml'), SITE_STUB.replace('  # app_name: ~', '  app_name: shop'));
    expect((await run(root, 'validate')).stdout).toBe('valid (2 templates, 2 files): 0 errors, 0 warnings\n');
  });

  it('refuses to overwrite an existing .sync.yml', async () => {
    const root = tempTree({ '.sync.yml': '# mine\n' });
    const r = await run(root, 'init', '--stub', '--source', REPO);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(
      '.sync.yml:1:1: error: .sync.yml exists already; init --stub never overwrites it [STUB_EXISTS]',
    );
    expect(r.stderr).toContain('hint: print the stub with --stdout');
    expect(readFileSync(join(root, '.sync.yml'), 'utf8')).toBe('# mine\n');
    // --stdout never writes, so it works beside an existing file.
    expect(
      (await run(root, 'init', '--stub', '--stdout', '--source', REPO, '--templates', 'site')).stdout,
    ).toBe(SITE_STUB);
  });

  it('names an unknown template with a did-you-mean and writes nothing', async () => {
    const root = tempTree({});
    const r = await run(root, 'init', '--stub', '--source', REPO, '--templates', 'site,tema');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      "error: unknown template 'tema': no template source has it [COMPOSITION_UNKNOWN_TEMPLATE]",
    );
    expect(r.stderr).toContain("hint: did you mean 'team'?");
    expect(snapshotDir(root)).toEqual({});
  });

  it('without --stub, init creates a module project (which needs --name off a terminal)', async () => {
    const root = tempTree({});
    const r = await run(root, 'init');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('init needs the module name: pass --name author-module');
    expect(snapshotDir(root)).toEqual({});
  });
});

describe('stubSyncConfig', () => {
  it("chooses the sources' always_apply templates by default and lists the shared settings they publish", async () => {
    const root = tempTree({});
    const stub = await stubSyncConfig({ root, env: { PANTOGRAPH_DEFAULT_SOURCE: REPO } });
    expect(stub.templates).toEqual(['team']);
    expect(stub.problems).toEqual([]);
    expect(stub.text).toBe(`# Pantograph project configuration (PDK templates version 2).
# Every setting of the chosen templates is listed, commented out with its default:
# uncomment and change what this project needs.
pdk_template:
  version: 2
  template_sources:
    - default
  templates:
    - team
  # Shared settings the templates publish (the project may override them):
  # shared_settings:
  #   # Who administers what the project deploys. (array of string); published by team
  #   admins:
  #     - alice

# team: Who works on the project; publishes the admins.
team:
  # (string)
  # team_name: core
  # (array)
  # members:
  #   - alice
  #   - bob
`);
  });

  it('throws an EngineError for an unknown template', async () => {
    const root = tempTree({});
    const error = await stubSyncConfig({
      root,
      env: { PANTOGRAPH_DEFAULT_SOURCE: REPO },
      templates: ['nope'],
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EngineError);
    expect((error as EngineError).code).toBe('COMPOSITION_UNKNOWN_TEMPLATE');
  });
});
