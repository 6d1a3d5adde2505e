/**
 * `pdk update` leaves a file alone when its diff is empty, and its diff ignores CRs and blank lines at the
 * end: the V1 runner keeps such a file as it is (stable), and writes the template's whole output once a
 * line really changes, as PDK does.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { pdkDiffLines, pdkSeesNoChange } from '../../../src/engine/v1/pdk-unchanged.js';
import { run } from '../../cli/cli-helpers.js';
import { removeTempDirs, tempDir, tempTree } from '../../helpers/fs.js';

const PDK_TEMPLATES = resolve(import.meta.dirname, '../../fixtures/pdk-templates-3.5.1');

beforeEach(() => vi.stubEnv('PANTOGRAPH_CACHE_DIR', tempDir('pantograph-cache-')));
afterEach(() => {
  vi.unstubAllEnvs();
  removeTempDirs();
});

describe('PDK\'s diff lines (content.split("\\n").map(&:chomp))', () => {
  it('drops trailing empty lines before chomping, and one CR per line', () => {
    expect(pdkDiffLines('a\r\nb\n\n\n')).toEqual(['a', 'b']);
    expect(pdkDiffLines('\na')).toEqual(['', 'a']);
    expect(pdkDiffLines('a\n\r\n')).toEqual(['a', '']);
    expect(pdkDiffLines('a\r\r\n')).toEqual(['a\r']);
    expect(pdkDiffLines('')).toEqual([]);
  });
  it('sees no change for CRLF or blank lines at the end, a change for anything else', () => {
    const b = (s: string) => Buffer.from(s);
    expect(pdkSeesNoChange(b('x\r\ny\r\n'), b('x\ny\n'))).toBe(true);
    expect(pdkSeesNoChange(b('x\ny'), b('x\ny\n\n'))).toBe(true);
    expect(pdkSeesNoChange(b('x\ny\n'), b('x\n y\n'))).toBe(false);
    expect(pdkSeesNoChange(b('\nx\n'), b('x\n'))).toBe(false);
    // Byte for byte: two different invalid UTF-8 bytes are different lines.
    expect(pdkSeesNoChange(Buffer.from([0xff, 0x0a]), Buffer.from([0xfe, 0x0a]))).toBe(false);
    expect(pdkSeesNoChange(Buffer.from([0xff, 0x0d, 0x0a]), Buffer.from([0xff, 0x0a, 0x0a]))).toBe(true);
  });
});

describe('a V1 project: files pdk update would not rewrite', () => {
  const module = () =>
    tempTree({
      'metadata.json': JSON.stringify({
        name: 'acme-widget',
        version: '0.1.0',
        author: 'acme',
        license: 'Apache-2.0',
      }),
      '.sync.yml': '---\n',
      // CRLF, as a Windows checkout committed it; and the Rakefile's blank last line cut by hand.
      '.rspec': '--color\r\n--format documentation\r\n',
    });

  it('are stable as they are; apply writes none of them', async () => {
    const root = module();
    expect((await run(root, 'apply', '--yes', '--template-url', PDK_TEMPLATES)).code).toBe(0);
    const rakefile = readFileSync(join(root, 'Rakefile'), 'utf8');
    expect(rakefile.endsWith(']\n\n')).toBe(true);
    // A module PDK managed, new to Pantograph: the two files are adopted as they are.
    const fresh = module();
    writeFileSync(join(fresh, 'Rakefile'), rakefile.slice(0, -1));
    const status = await run(fresh, 'status', '--all', '--template-url', PDK_TEMPLATES);
    expect(status.stdout).toMatch(/^stable\s+\.rspec\s/m);
    expect(status.stdout).toMatch(/^stable\s+Rakefile\s/m);
    expect((await run(fresh, 'apply', '--yes', '--template-url', PDK_TEMPLATES)).code).toBe(0);
    expect(readFileSync(join(fresh, '.rspec'), 'utf8')).toBe('--color\r\n--format documentation\r\n');
    expect(readFileSync(join(fresh, 'Rakefile'), 'utf8')).toBe(rakefile.slice(0, -1));
    const again = await run(fresh, 'status', '--check', '--template-url', PDK_TEMPLATES);
    expect(again.stdout).toMatch(/no drift/);
    expect(again.code).toBe(0);
  });

  it('edited by hand after, they are hand edits like any other: kept, no conflict', async () => {
    const root = module();
    const crlf = '--color\r\n--format documentation\r\n';
    expect((await run(root, 'apply', '--yes', '--template-url', PDK_TEMPLATES)).code).toBe(0);
    expect(readFileSync(join(root, '.rspec'), 'utf8')).toBe(crlf);
    writeFileSync(join(root, '.rspec'), `${crlf}--order rand\r\n`);
    const status = await run(root, 'status', '--template-url', PDK_TEMPLATES);
    expect(status.stdout).toMatch(/^edited\s+\.rspec\s/m);
    const applied = await run(root, 'apply', '--template-url', PDK_TEMPLATES);
    expect(applied.code).toBe(0);
    expect(readFileSync(join(root, '.rspec'), 'utf8')).toBe(`${crlf}--order rand\r\n`);
  });

  it("once a line changes, the template's whole output is written (LF), as PDK writes it", async () => {
    const root = module();
    writeFileSync(join(root, '.rspec'), '--color\r\n');
    const r = await run(root, 'apply', '--force', '--template-url', PDK_TEMPLATES);
    expect(r.code).toBe(0);
    expect(readFileSync(join(root, '.rspec'), 'utf8')).toBe('--color\n--format documentation\n');
  });
});
