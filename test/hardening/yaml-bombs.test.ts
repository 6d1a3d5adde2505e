/**
 * Issue 11, item 6: a "billion laughs" of nested YAML aliases (a ~500-byte `.sync.yml` that took 40 s and
 * 2.6 GB, then an internal error) is a YAML error with its position, at once, wherever YAML is read.
 */
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseYamlData } from '../../src/engine/yaml-data.js';
import { run } from '../cli/cli-helpers.js';
import { removeTempDirs, tempDir, writeTree } from '../helpers/fs.js';

afterAll(removeTempDirs);

const bin = resolve(import.meta.dirname, '../../dist/cli/bin.cjs');

/** Nine levels of nine aliases each: 9^9 (387 million) strings once expanded. */
function laughs(indent = ''): string {
  const lines = [`${indent}a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]`];
  const names = 'abcdefghi';
  for (let i = 1; i < names.length; i++) {
    const prev = names[i - 1];
    lines.push(
      `${indent}${names[i]}: &${names[i]} [*${prev},*${prev},*${prev},*${prev},*${prev},*${prev},*${prev},*${prev},*${prev}]`,
    );
  }
  return `${lines.join('\n')}\n`;
}

describe('YAML alias bombs', () => {
  it('a .sync.yml: an error at the alias, for every command that reads it', async () => {
    const text = `pdk_template:\n  version: 2\n  templates: []\nbomb:\n${laughs('  ')}`;
    expect(text.length).toBeLessThan(700);
    const root = writeTree(tempDir(), { '.sync.yml': text });
    for (const command of ['status', 'validate', 'apply']) {
      const r = await run(root, command);
      expect(r.code).toBe(1);
      // the first alias that expands too far: `c`'s items are copies of `b`'s copies
      expect(r.stderr).toMatch(
        /\.sync\.yml:\d+:\d+: error: YAML aliases here expand to more than 10,000 values/,
      );
    }
  });

  it('the reader reports the position of the alias, not an internal error', () => {
    const parsed = parseYamlData(laughs(), 'x.yml', { version: '1.1', errorCode: 'SYNC_YAML' });
    expect(parsed.data).toBeUndefined();
    expect(parsed.problems).toEqual([
      expect.objectContaining({
        severity: 'error',
        code: 'SYNC_YAML',
        file: 'x.yml',
        line: expect.any(Number),
      }),
    ]);
  });

  it('a few ordinary aliases still work', () => {
    const parsed = parseYamlData('base: &b [x, y]\nmore: *b\n', 'x.yml', {
      version: '1.1',
      errorCode: 'SYNC_YAML',
    });
    expect(parsed.problems).toEqual([]);
    expect(parsed.data).toEqual({ base: ['x', 'y'], more: ['x', 'y'] });
  });

  it('a values file of `epp render`: an error naming the file and the alias', () => {
    const dir = writeTree(tempDir(), { 'v.yaml': laughs(), 't.epp': 'x' });
    const r = spawnSync(process.execPath, [bin, 'epp', 'render', 't.epp', '--values-file', 'v.yaml'], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/v\.yaml:\d+:\d+: error: YAML aliases here expand to more than 10,000 values/);
    expect(r.stderr).toContain('hint: nested aliases multiply');
    expect(r.stderr).not.toMatch(/internal error|at .*\.js:\d+/i);
    expect(join(dir, 'v.yaml')).toBeTruthy();
  });
});
