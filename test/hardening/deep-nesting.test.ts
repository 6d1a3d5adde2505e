/**
 * JSON nested 100,000 deep (a few hundred KB of brackets) in a file someone else wrote: `metadata.json`, a
 * template's `template.json` from a source, a values file of `epp render`. The readers recurse, and so do
 * the walks of the data after them; such a file was an internal error (the stack exhausted) instead of an
 * error at its position. Arrays and objects may nest 400 deep (MAX_JSON_DEPTH, as deep as the parser nests
 * a template's expressions); one level more is an error there, and nothing is written. YAML lists and
 * mappings too (session 34: they stopped where the yaml package's composer ran out of stack, a place
 * that moved with the caller's stack).
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseJsonData } from '../../src/engine/json-data.js';
import { MAX_YAML_DEPTH } from '../../src/engine/yaml-depth.js';
import { MAX_JSON_DEPTH, parseJsonValues, TOO_DEEP_HINT } from '../../src/epp/json-values.js';
import { api } from '../../src/ui/api.js';
import { run } from '../cli/cli-helpers.js';
import { removeTempDirs, tempDir, writeTree } from '../helpers/fs.js';

afterAll(removeTempDirs);

const bin = resolve(import.meta.dirname, '../../dist/cli/bin.cjs');

/** `{"name": "acme-x", "deep": [[...]]}` with `levels` arrays and objects in all (the outer object one). */
const nested = (levels: number) =>
  `{"name": "acme-x", "deep": ${'['.repeat(levels - 1)}${']'.repeat(levels - 1)}}`;
/** The column of the bracket that opens level `levels`. */
const columnOfLevel = (levels: number) => '{"name": "acme-x", "deep": '.length + levels - 1;

const SYNC = 'pdk_template:\n  version: 2\n  templates: []\n';

describe('JSON nested deeper than anything real', () => {
  it('metadata.json: an error where the nesting goes too deep, for every command, and nothing written', async () => {
    const root = writeTree(tempDir(), { '.sync.yml': SYNC, 'metadata.json': nested(100_000) });
    const before = readdirSync(root).sort();
    for (const command of ['status', 'apply']) {
      const r = await run(root, command);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(
        `metadata.json:1:${columnOfLevel(MAX_JSON_DEPTH + 1)}: error: metadata.json is not valid JSON: ` +
          `arrays and objects nest deeper than ${MAX_JSON_DEPTH} levels [PROJECT_METADATA]`,
      );
      expect(r.stderr).toContain(`hint: ${TOO_DEEP_HINT}`);
      expect(r.stderr).not.toMatch(/internal error|RangeError/);
    }
    expect(readdirSync(root).sort()).toEqual(before);
  });

  it("a template's template.json from a source: the template's error, at its position", async () => {
    const repo = writeTree(tempDir(), {
      'deep/template.json': nested(100_000),
      'deep/files/a.txt': 'a',
    });
    const root = writeTree(tempDir(), {
      '.sync.yml': `pdk_template:\n  version: 2\n  template_sources:\n    - type: filesystem\n      location: ${repo}\n  templates: [deep]\n`,
    });
    const before = readdirSync(root).sort();
    for (const command of ['status', 'apply']) {
      const r = await run(root, command);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(
        `template.json:1:${columnOfLevel(MAX_JSON_DEPTH + 1)}: error: invalid JSON: arrays and objects nest deeper than ${MAX_JSON_DEPTH} levels`,
      );
      expect(r.stderr).toContain(`hint: ${TOO_DEEP_HINT}`);
      expect(r.stderr).not.toMatch(/internal error|RangeError/);
    }
    expect(readdirSync(root).sort()).toEqual(before);
  });

  it('a values file of `epp render`: an error naming the file and the place, nothing printed', () => {
    const dir = writeTree(tempDir(), { 'v.json': nested(100_000), 't.epp': '<%= $name %>' });
    const r = spawnSync(process.execPath, [bin, 'epp', 'render', 't.epp', '--values-file', 'v.json'], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(
      `v.json:1:${columnOfLevel(MAX_JSON_DEPTH + 1)}: error: invalid JSON: arrays and objects nest deeper than ${MAX_JSON_DEPTH} levels`,
    );
    expect(r.stderr).toContain(`hint: ${TOO_DEEP_HINT}`);
    expect(r.stderr).not.toMatch(/internal error|RangeError/);
  });

  it('YAML (.sync.yml, a values file): 400 levels too, an error where the level one too deep opens', async () => {
    const deep = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
    const root = writeTree(tempDir(), {
      '.sync.yml': `${SYNC}gemfile:\n  x: ${deep}\n`,
      'v.yaml': `x: ${deep}\n`,
    });
    const before = readdirSync(root).sort();
    const r = await run(root, 'apply');
    expect(r.code).toBe(1);
    // Level 1 the file's mapping, 2 gemfile's: the 399th `[` (column 6 + 398) opens level 401.
    expect(r.stderr).toContain(
      `.sync.yml:5:404: error: lists and mappings nest deeper than ${MAX_YAML_DEPTH} levels [SYNC_YAML]`,
    );
    expect(r.stderr).toContain(`hint: ${TOO_DEEP_HINT}`);
    expect(readdirSync(root).sort()).toEqual(before);
    const values = spawnSync(process.execPath, [bin, 'epp', 'render', 't.epp', '--values-file', 'v.yaml'], {
      cwd: writeTree(root, { 't.epp': 'x' }),
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(values.status).toBe(1);
    expect(values.stdout).toBe('');
    expect(values.stderr).toContain(
      `v.yaml:1:403: error: lists and mappings nest deeper than ${MAX_YAML_DEPTH} levels`,
    );
    expect(values.stderr).toContain(`hint: ${TOO_DEEP_HINT}`);
    expect(`${r.stderr}${values.stderr}`).not.toMatch(/internal error|Maximum call stack/);
  });

  it('a request of the web interface: a 400 saying why, and the .sync.yml untouched', async () => {
    const root = writeTree(tempDir(), { '.sync.yml': SYNC });
    const app = api({ root, offline: true });
    const settings = (levels: number) => `{"x": ${'['.repeat(levels - 1)}${']'.repeat(levels - 1)}}`;
    const post = (path: string, levels: number) =>
      app.request(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: `{"syncText": ${JSON.stringify(SYNC)}, "template": "gemfile", "kind": "settings", "settings": ${settings(levels)}}`,
      });
    for (const path of ['/check', '/edit']) {
      const refused = await post(path, 100_000);
      expect(refused.status).toBe(400);
      // One level less than .sync.yml allows: the template's name holds them there.
      const error = `settings must not nest arrays and objects deeper than ${MAX_YAML_DEPTH - 1} levels (under their template's name in .sync.yml, ${MAX_YAML_DEPTH})`;
      expect(await refused.json()).toEqual({ error });
      expect(await (await post(path, MAX_YAML_DEPTH)).json()).toEqual({ error });
      expect((await post(path, MAX_YAML_DEPTH - 1)).status).toBe(200);
    }
    expect(readFileSync(join(root, '.sync.yml'), 'utf8')).toBe(SYNC);
  });

  it('reads data nested exactly as deep as allowed, and refuses one level more, in both readers', () => {
    const deepest = parseJsonData(nested(MAX_JSON_DEPTH), 'm.json', 'PROJECT_METADATA');
    expect(deepest.problems).toEqual([]);
    let level = (deepest.data as { deep: unknown }).deep;
    for (let i = 2; i < MAX_JSON_DEPTH; i++) level = (level as unknown[])[0];
    expect(level).toEqual([]);
    expect(parseJsonData(nested(MAX_JSON_DEPTH + 1), 'm.json', 'PROJECT_METADATA').data).toBeUndefined();

    expect(parseJsonValues(nested(MAX_JSON_DEPTH), 'v.json')).toBeInstanceOf(Map);
    expect(() => parseJsonValues(nested(MAX_JSON_DEPTH + 1), 'v.json')).toThrow(
      /nest deeper than 400 levels/,
    );
  });
});
