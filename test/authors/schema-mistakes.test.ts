/**
 * A template schema's own mistakes are reported all at once, each at its place, by the authors' `docs`
 * and by a project's `validate`; nothing is written.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { syncYml } from '../apply-cli/fixtures.js';
import { run } from '../cli/cli-helpers.js';
import { removeTempDirs, snapshotDir, tempDir, tempTree, writeTree } from '../helpers/fs.js';

afterEach(removeTempDirs);

/** An unknown keyword and a `$ref` to nothing in one schema: ajv stopped at the `$ref`. */
const REPO = {
  'demo/template.json':
    '{"name": "demo", "description": "d", "version": "1.0.0", "default_settings": {"n": "ab"}}',
  'demo/template_schema.json':
    '{\n  "type": "object",\n  "properties": {\n    "n": {"type": "string", "minLenght": 2},\n    "r": {"$ref": "#/definitions/nope"}\n  }\n}\n',
  'demo/files/a.txt.epp': '<%= $n %>\n',
};

const KEYWORD =
  "demo/template_schema.json:4:42: error: unknown keyword 'minLenght' in the schema at /properties/n/minLenght [TEMPLATE_SCHEMA]";
const REF =
  "demo/template_schema.json:5:19: error: invalid schema: $ref '#/definitions/nope' does not resolve (at /properties/r/$ref) [TEMPLATE_SCHEMA]";

describe('a template schema with several mistakes', () => {
  it('docs reports each at its place and writes no README', async () => {
    const repo = tempTree(REPO);
    const before = snapshotDir(repo);
    const r = await run(repo, 'docs');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(KEYWORD);
    expect(r.stderr).toContain("hint: did you mean 'minLength'?");
    expect(r.stderr).toContain(REF);
    expect(snapshotDir(repo)).toEqual(before);
  });

  it('test reports each once, not again under the case it fails, and writes nothing', async () => {
    const repo = tempTree({
      ...REPO,
      'demo/tests/basic/.sync.yml': 'pdk_template:\n  version: 2\n  templates: [demo]\n',
      'demo/tests/basic/expected/a.txt': 'ab\n',
    });
    const before = snapshotDir(repo);
    const r = await run(repo, 'test');
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('FAIL demo/basic\n  fails on the errors printed above\n');
    const errors = r.stderr.split('\n').filter((l) => l.includes(': error: '));
    expect(errors).toEqual([KEYWORD, REF]);
    expect(snapshotDir(repo)).toEqual(before);
  });

  it('validate, in a project applying the template, reports each at its place and writes nothing', async () => {
    const repo = tempTree(REPO);
    const root = writeTree(tempDir(), { '.sync.yml': syncYml(repo, '', '[demo]') });
    const before = snapshotDir(root);
    const r = await run(root, 'validate');
    expect(r.code).toBe(1);
    const errors = r.stderr.split('\n').filter((l) => l.includes(': error: '));
    expect(errors.map((l) => l.slice(l.indexOf('demo/template_schema.json')))).toEqual([KEYWORD, REF]);
    expect(errors.every((l) => l.startsWith(join(repo, 'demo')))).toBe(true);
    expect(snapshotDir(root)).toEqual(before);
  });
});

describe('a template schema whose $refs lead only to each other', () => {
  it('docs names the loop at its first $ref, not a stack overflow', async () => {
    const repo = tempTree({
      'loop/template.json': '{"name": "loop", "description": "d", "version": "1.0.0"}',
      'loop/template_schema.json':
        '{\n  "definitions": {\n    "a": {"$ref": "#/definitions/b"},\n    "b": {"$ref": "#/definitions/a"}\n  },\n  "$ref": "#/definitions/a"\n}\n',
      'loop/files/a.txt.epp': 'x\n',
    });
    const r = await run(repo, 'docs');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      "loop/template_schema.json:3:19: error: invalid schema: $ref '#/definitions/b' (at /definitions/a/$ref) leads only to $refs, in a loop: #/definitions/b -> #/definitions/a -> #/definitions/b [TEMPLATE_SCHEMA]",
    );
    expect(r.stderr).not.toContain('call stack');
  });
});
