/**
 * Standard output and error written on their descriptors (src/cli/standard-output.ts): what the command
 * prints arrives whole and in order in a pipe or a file, a reader closing the pipe early ends the command
 * quietly, and a descriptor someone set non-blocking falls back to Node's stream without losing a byte.
 */
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, readFileSync, readSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { standardOutput } from '../../src/cli/standard-output.js';

const bin = resolve(import.meta.dirname, '../../dist/cli/bin.cjs');
/** A template whose output is far larger than a pipe's buffer (64 KB): 20,000 numbered lines. */
const MANY_LINES = '<% Integer[1, 20000].each |$i| { %>line <%= $i %>\n<% } %>';
const manyLines = Array.from({ length: 20000 }, (_, i) => `line ${i + 1}\n`).join('');

describe('standard output of the built command', () => {
  it('arrives whole in a pipe, and whole in a file', () => {
    const piped = spawnSync(process.execPath, [bin, 'epp', 'render', '-e', MANY_LINES], { encoding: 'utf8' });
    expect(piped.status).toBe(0);
    expect(piped.stdout).toBe(manyLines);

    const file = join(mkdtempSync(join(tmpdir(), 'pantograph-out-')), 'out.txt');
    const fd = openSync(file, 'w');
    try {
      const toFile = spawnSync(process.execPath, [bin, 'epp', 'render', '-e', MANY_LINES], {
        stdio: ['ignore', fd, 'pipe'],
        encoding: 'utf8',
      });
      expect(toFile.status).toBe(0);
      expect(toFile.stderr).toBe('');
    } finally {
      closeSync(fd);
    }
    expect(readFileSync(file, 'utf8')).toBe(manyLines);
  });

  it('ends quietly, exit 0, when the reader closes the pipe early (`| head`)', async () => {
    const child = spawn(process.execPath, [bin, 'epp', 'render', '-e', MANY_LINES]);
    child.stdout.destroy(); // the reader is gone before the command writes
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    const code = await new Promise((done) => child.on('close', done));
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
  });

  it('errors go to standard error, the output to standard output', () => {
    const r = spawnSync(process.execPath, [bin, 'epp', 'render', '-e', '<%= $nope %>'], { encoding: 'utf8' });
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('nope');
  });
});

describe('standardOutput on a non-blocking descriptor', () => {
  it('hands what the pipe cannot take to the stream, in order, nothing lost', () => {
    const dir = mkdtempSync(join(tmpdir(), 'pantograph-fifo-'));
    const fifo = join(dir, 'fifo');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    // Read-write and non-blocking: nobody reads, so once its buffer is full a write answers EAGAIN.
    const fd = openSync(fifo, constants.O_RDWR | constants.O_NONBLOCK);
    const viaStream: Buffer[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        viaStream.push(Buffer.from(chunk));
        done();
      },
    });
    try {
      const channel = standardOutput(fd, () => stream as unknown as NodeJS.WriteStream);
      expect(channel.isTerminal).toBe(false);
      const first = 'a'.repeat(200_000);
      channel.write(first);
      channel.write('after\n'); // once falling back, everything after goes the same way (order kept)

      const inPipe: Buffer[] = [];
      const chunk = Buffer.alloc(65536);
      for (;;) {
        let n = 0;
        try {
          n = readSync(fd, chunk);
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code === 'EAGAIN') break;
          throw e;
        }
        if (n === 0) break;
        inPipe.push(Buffer.from(chunk.subarray(0, n)));
      }
      const piped = Buffer.concat(inPipe);
      expect(piped.length).toBeGreaterThan(0);
      expect(piped.length).toBeLessThan(first.length);
      expect(Buffer.concat([piped, ...viaStream]).toString()).toBe(`${first}after\n`);
    } finally {
      closeSync(fd);
    }
  });
});
