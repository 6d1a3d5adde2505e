/**
 * Security review 20, finding 4: an untrusted template's `template_schema.json` is checked under the
 * time limit its rendering has. A `pattern` that backtracks (`^(a+)+$` on sixty `a`s and a `!`, the
 * template's own default) hung `status` for ever: settings were checked in the main thread, where no limit
 * applied. Now the check ends in EPP_TIME_LIMIT at the pattern, and nothing is written. (The limit is
 * lowered through the environment, so that the attack ends quickly.)
 */
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs, snapshotDir, tempDir, writeTree } from '../helpers/fs.js';
import { tempRemote } from '../helpers/git.js';

afterAll(removeTempDirs);

const bin = resolve(import.meta.dirname, '../../dist/cli/bin.cjs');
const BOMB = `${'a'.repeat(61)}!`;

/** A schema whose `pattern` (line 6, column 18) backtracks for ever on `BOMB`. */
const SCHEMA = `{
  "type": "object",
  "properties": {
    "word": {
      "type": "string",
      "pattern": "^(a+)+$"
    }
  }
}
`;

/** A git source (untrusted: no `trusted: true`) with template `evil`, and a project using it. */
function project(files: Record<string, string>, sync = ''): string {
  const remote = tempRemote();
  remote.commit({
    'evil/template.json': JSON.stringify({
      name: 'evil',
      always_apply: true,
      default_settings: { word: BOMB },
    }),
    'evil/files/out.txt.epp': '<%= $word %>\n',
    ...Object.fromEntries(Object.entries(files).map(([k, v]) => [`evil/${k}`, v])),
  });
  return writeTree(tempDir(), {
    'metadata.json': '{"name": "acme-demo", "version": "0.1.0"}\n',
    '.sync.yml': `pdk_template:\n  version: 2\n  template_sources:\n    - type: git\n      location: ${remote.url}\n${sync}`,
  });
}

function pantograph(root: string, ...args: string[]) {
  return pantographWith({}, root, ...args);
}

/** `pantograph` with more of the environment (other limits). */
function pantographWith(env: Record<string, string>, root: string, ...args: string[]) {
  return spawnSync(process.execPath, [bin, ...args], {
    cwd: root,
    encoding: 'utf8',
    timeout: 120_000,
    env: {
      ...process.env,
      NO_COLOR: '1',
      PANTOGRAPH_CACHE_DIR: tempDir('pantograph-cache-'),
      PANTOGRAPH_UNTRUSTED_TIME_LIMIT: '2',
      ...env,
    },
  });
}

describe("an untrusted template's schema", () => {
  it('a pattern that backtracks for ever: EPP_TIME_LIMIT at the pattern, nothing written', () => {
    const root = project({ 'template_schema.json': SCHEMA });
    const before = snapshotDir(root);
    for (const command of ['status', 'apply']) {
      const r = pantograph(root, command);
      expect(r.signal).toBeNull(); // ended by the limit, not by the test's timeout
      expect(r.status).toBe(1);
      expect(r.stderr).toMatch(
        /evil\/template_schema\.json:6:18: error: template 'evil' \(template_schema\.json\): checking the settings ran longer than 2 s \(the time limit of untrusted templates\) \[EPP_TIME_LIMIT\]/,
      );
      expect(r.stderr).toContain('its pattern "^(a+)+$" was still matching when the time ran out');
      expect(r.stderr).toContain('PANTOGRAPH_UNTRUSTED_TIME_LIMIT');
    }
    expect(snapshotDir(root)).toEqual(before);
  });

  it('a schema whose compiled form outgrows the memory limit: EPP_MEMORY_LIMIT at once, not a time limit', () => {
    // 240 KB of JSON, twelve levels of two objects: ajv's compiled code doubles with each level.
    let schema: object = { type: 'string' };
    for (let i = 0; i < 12; i++) schema = { type: 'object', properties: { a: schema, b: schema } };
    const root = project({ 'template_schema.json': JSON.stringify(schema) });
    const before = snapshotDir(root);
    const started = Date.now();
    const limits = { PANTOGRAPH_UNTRUSTED_MEMORY_LIMIT: '64', PANTOGRAPH_UNTRUSTED_TIME_LIMIT: '60' };
    const r = pantographWith(limits, root, 'status');
    expect(r.signal).toBeNull();
    expect(r.status).toBe(1);
    // Found when the worker died, not at the time limit.
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(r.stderr).toMatch(
      /evil\/template_schema\.json:1:1: error: template 'evil' \(template_schema\.json\): checking the settings used more than 64 MB of memory \(the limit of untrusted templates\) \[EPP_MEMORY_LIMIT\]/,
    );
    expect(r.stderr).not.toContain('ran longer than');
    expect(r.stderr).toContain('PANTOGRAPH_UNTRUSTED_MEMORY_LIMIT');
    expect(snapshotDir(root)).toEqual(before);
  });

  it('a pattern of patternProperties: at its key', () => {
    const schema =
      '{\n  "type": "object",\n  "patternProperties": {\n    "^(w+)+$": { "type": "integer" }\n  }\n}\n';
    const root = project(
      { 'template_schema.json': schema },
      `evil:\n  ${'w'.repeat(40)}x: 1\n`, // a key the pattern backtracks on
    );
    const r = pantograph(root, 'status');
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(
      /evil\/template_schema\.json:4:5: error: .*ran longer than 2 s.*\[EPP_TIME_LIMIT\]/,
    );
  });

  it('the schema a template publishes a shared setting with: at its pattern in template.json', () => {
    const remote = tempRemote();
    const manifest = {
      name: 'evil',
      always_apply: true,
      shared_settings: { motto: { value: BOMB, schema: { type: 'string', pattern: '^(a+)+$' } } },
    };
    remote.commit({
      'evil/template.json': JSON.stringify(manifest, null, 2),
      'evil/files/out.txt': 'x\n',
      'reader/template.json': JSON.stringify({
        name: 'reader',
        always_apply: true,
        setting_subscriptions: ['motto'],
      }),
      'reader/files/motto.txt.epp': '<%= $motto %>\n',
    });
    const root = writeTree(tempDir(), {
      '.sync.yml': `pdk_template:\n  version: 2\n  template_sources:\n    - type: git\n      location: ${remote.url}\n`,
    });
    const r = pantograph(root, 'status');
    expect(r.status).toBe(1);
    // "pattern": "^(a+)+$" is on line 9 of the pretty-printed template.json.
    expect(r.stderr).toMatch(
      /evil\/template\.json:9:20: error: template 'evil' \(template\.json\): checking the settings ran longer than 2 s/,
    );
  });

  it('checks the settings as a trusted one does: violations reported, good values rendered', () => {
    const bad = project({ 'template_schema.json': SCHEMA }, 'evil:\n  word: b\n');
    const r = pantograph(bad, 'status');
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(
      /\.sync\.yml:7:9: error: .*word.*must match pattern "\^\(a\+\)\+\$" \[SETTINGS_INVALID\]/,
    );
    const good = project({ 'template_schema.json': SCHEMA }, 'evil:\n  word: aaa\n');
    const ok = pantograph(good, 'apply');
    expect(ok.stderr).toBe('');
    expect(ok.status).toBe(0);
    expect(snapshotDir(good)['out.txt']).toContain(Buffer.from('aaa\n').toString('base64'));
  });
});
