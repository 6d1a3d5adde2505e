/**
 * Every file a fleet command reads whole is bounded before it is read: the fleet file, a modulesync
 * configuration's `managed_modules.yml` and `modulesync.yml` (`fleet import-modulesync`), the shard reports
 * `fleet report` merges (other machines' artifacts), the run locks of other runs and each clone's record.
 * One too large, not a regular file (a FIFO would block the command for ever) or not UTF-8 is refused with
 * its code, at file:line:col, with what to do, exit 1, and nothing written. The built CLI, real files,
 * real git remotes.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from '../helpers/fs.js';
import { bin, type CliResult, gitEnv, moduleRemote, pantograph } from './fleet-helpers.js';

afterAll(removeTempDirs);

const MiB = 1024 * 1024;

function fifo(path: string): string {
  execFileSync('mkfifo', [path]);
  return path;
}

/**
 * The CLI where a FIFO is in the way: a command that opened it would block in the kernel, deaf to SIGTERM
 * (its handler never runs), so a regression is killed outright and fails rather than hanging the suite.
 */
function pantographNearFifo(cwd: string, args: readonly string[]): CliResult {
  const r = spawnSync(process.execPath, [bin, ...args], {
    cwd,
    encoding: 'utf8',
    timeout: 30_000,
    killSignal: 'SIGKILL',
    env: gitEnv,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A fleet of one remote, `mod`; returns the directory of its fleet.yml. */
function oneRepositoryFleet(prefix: string): string {
  const root = tempDir(prefix);
  moduleRemote(root, 'mod');
  writeFileSync(
    join(root, 'fleet.yml'),
    'version: 1\nrepositories:\n  - { name: mod, url: remotes/mod.git }\n',
  );
  return root;
}

/** The problems of a command run under --format json. */
function problemsOf(
  cwd: string,
  args: string[],
): { status: number | null; problems: Record<string, unknown>[] } {
  const r = pantograph(cwd, ['--format', 'json', ...args]);
  return {
    status: r.status,
    problems: (JSON.parse(r.stdout) as { problems: Record<string, unknown>[] }).problems,
  };
}

describe('the fleet file', () => {
  it('larger than 1 MiB: refused at 1:1 with its size, before anything is cloned', () => {
    const root = oneRepositoryFleet('fleet-bounded-');
    const file = join(root, 'fleet.yml');
    writeFileSync(file, `${readFileSync(file, 'utf8')}# ${'x'.repeat(MiB)}\n`);
    const r = pantograph(root, ['fleet', 'status']);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(
      new RegExp(
        `fleet\\.yml:1:1: error: ${file} is \\d+ bytes, larger than the 1 MiB a fleet reads of a fleet file: nothing was read or written \\[FLEET_READ\\]`,
      ),
    );
    expect(r.stderr).toContain(
      'hint: check that this is the fleet file meant (no real one is near that size), then run the fleet command again',
    );
    expect(problemsOf(root, ['fleet', 'status']).problems[0]).toMatchObject({
      code: 'FLEET_READ',
      file,
      line: 1,
      column: 1,
    });
    expect(existsSync(join(root, '.pantograph-fleet'))).toBe(false);
  });

  it('a FIFO: refused at once (reading it would wait for a writer for ever), nothing cloned', () => {
    const root = oneRepositoryFleet('fleet-bounded-');
    const file = fifo(join(root, 'fifo.yml'));
    const r = pantographNearFifo(root, ['fleet', 'status', '--fleet', 'fifo.yml']);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(
      `fifo.yml:1:1: error: ${file} is not a regular file (a FIFO, socket or device): a fleet file is read whole, nothing was read or written [FLEET_READ]`,
    );
    expect(r.stderr).toContain('hint: give the fleet file itself, then run the fleet command again');
    expect(existsSync(join(root, '.pantograph-fleet'))).toBe(false);
  });
});

describe('fleet import-modulesync', () => {
  /** A modulesync configuration listing one module; returns its directory. */
  function configuration(): string {
    const dir = join(tempDir('fleet-bounded-msync-'), 'config');
    mkdirSync(dir);
    writeFileSync(join(dir, 'managed_modules.yml'), '---\n- puppet-ntp\n');
    return dir;
  }

  it('a managed_modules.yml larger than 1 MiB: refused at 1:1, no fleet.yml written', () => {
    const dir = configuration();
    const file = join(dir, 'managed_modules.yml');
    writeFileSync(file, `---\n- puppet-ntp\n# ${'x'.repeat(MiB)}\n`);
    const r = pantograph(dir, ['fleet', 'import-modulesync']);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(
      new RegExp(
        `managed_modules\\.yml:1:1: error: ${file} is \\d+ bytes, larger than the 1 MiB a fleet reads of a modulesync configuration file: nothing was read or written \\[FLEET_MODULESYNC\\]`,
      ),
    );
    expect(r.stderr).toContain('then run `fleet import-modulesync` again');
    expect(existsSync(join(dir, 'fleet.yml'))).toBe(false);
  });

  it('a modulesync.yml not in UTF-8: refused at its first bad byte; nothing carried into a fleet.yml', () => {
    const dir = configuration();
    const file = join(dir, 'modulesync.yml');
    writeFileSync(file, Buffer.from('---\nmessage: "caf\xe9 update"\n', 'latin1'));
    const r = pantograph(dir, ['fleet', 'import-modulesync']);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(
      `modulesync.yml:2:14: error: ${file} is not valid UTF-8: byte 0xe9 at line 2, column 14: nothing was read or written [FLEET_MODULESYNC]`,
    );
    expect(r.stderr).toContain(
      'hint: save the modulesync configuration file as UTF-8 (most editors offer the encoding when saving), then run `fleet import-modulesync` again',
    );
    expect(problemsOf(dir, ['fleet', 'import-modulesync']).problems[0]).toMatchObject({
      code: 'FLEET_MODULESYNC',
      file,
      line: 2,
      column: 14,
    });
    expect(existsSync(join(dir, 'fleet.yml'))).toBe(false);
  });

  it('a managed_modules.yml that is a FIFO: refused at once, no fleet.yml written', () => {
    const dir = join(tempDir('fleet-bounded-msync-'), 'config');
    mkdirSync(dir);
    const file = fifo(join(dir, 'managed_modules.yml'));
    const r = pantographNearFifo(dir, ['fleet', 'import-modulesync']);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(
      `managed_modules.yml:1:1: error: ${file} is not a regular file (a FIFO, socket or device): a modulesync configuration file is read whole, nothing was read or written [FLEET_MODULESYNC]`,
    );
    expect(readdirSync(dir)).toEqual(['managed_modules.yml']);
  });
});

describe('fleet report', () => {
  /** A real shard report (the whole fleet as one shard) and the directory it is in. */
  function report(): { root: string; file: string; text: string } {
    const root = oneRepositoryFleet('fleet-bounded-report-');
    const text = pantograph(root, ['--format', 'json', 'fleet', 'status', '--shard', '1/1']).stdout;
    const file = join(root, 'report.json');
    writeFileSync(file, text);
    return { root, file, text };
  }

  it("saved as UTF-16 (Windows PowerShell's `>`): refused at 1:1 saying so, nothing printed", () => {
    const { root, file, text } = report();
    writeFileSync(file, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]));
    const r = pantograph(root, ['fleet', 'report', 'report.json']);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(
      `report.json:1:1: error: ${file} is encoded as UTF-16 (little-endian), not UTF-8: nothing was read or written [FLEET_REPORT]`,
    );
    expect(r.stderr).toContain(
      'hint: save the fleet report as UTF-8 (most editors offer the encoding when saving), then run `fleet report` again',
    );
  });

  it('with a UTF-8 byte order mark: merged as the report it is', () => {
    const { root, file, text } = report();
    writeFileSync(file, `\uFEFF${text}`);
    const r = pantograph(root, ['--format', 'json', 'fleet', 'report', 'report.json']);
    expect(r.status, r.stdout).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ repositories: [{ name: 'mod', result: 'in-line' }] });
  });

  it('not JSON: refused at the line and column of the mistake', () => {
    const { root, file } = report();
    writeFileSync(file, '{\n  "fleet": "x",\n  "mode": }\n');
    const { status, problems } = problemsOf(root, ['fleet', 'report', 'report.json']);
    expect(status).toBe(1);
    expect(problems[0]).toMatchObject({ code: 'FLEET_REPORT', file, line: 3, column: 11 });
    expect(problems[0]!.message).toBe(`${file} is not JSON: unexpected '}'`);
  });

  it('larger than 64 MiB, or a FIFO: refused at 1:1 before it is read, nothing printed', () => {
    const { root, file } = report();
    truncateSync(file, 64 * MiB + 1); // sparse: the size is what counts
    const big = pantograph(root, ['fleet', 'report', 'report.json']);
    expect(big.status).toBe(1);
    expect(big.stdout).toBe('');
    expect(big.stderr).toContain(
      `report.json:1:1: error: ${file} is ${64 * MiB + 1} bytes, larger than the 64 MiB a fleet reads of a fleet report: nothing was read or written [FLEET_REPORT]`,
    );
    const pipe = fifo(join(root, 'pipe.json'));
    const r = pantographNearFifo(root, ['fleet', 'report', 'pipe.json']);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(
      `pipe.json:1:1: error: ${pipe} is not a regular file (a FIFO, socket or device): a fleet report is read whole`,
    );
  });
});

describe("the fleet's own files in its workdir", () => {
  it("another run's lock that no run writes (a FIFO, a file too large) is refused at it, naming what to delete; nothing cloned", () => {
    const root = oneRepositoryFleet('fleet-bounded-lock-');
    const runs = join(root, '.pantograph-fleet', '.fleet-runs');
    mkdirSync(runs, { recursive: true });
    const pipe = fifo(join(runs, 'other.1.json'));
    const r = pantographNearFifo(root, ['fleet', 'status']);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain(
      `other.1.json:1:1: error: ${pipe} is a FIFO, socket or device, not a run lock the fleet writes: it was not read`,
    );
    expect(r.stderr).toContain('[FLEET_LOCKED]');
    expect(r.stderr).toContain(`hint: delete ${pipe} if no fleet run is using this workdir`);
    expect(readdirSync(runs)).toEqual(['other.1.json']); // its own lock taken away again
    expect(existsSync(join(root, '.pantograph-fleet', 'mod'))).toBe(false);

    // A live run's lock naming the repository, padded past what any fleet file's names take: not read.
    execFileSync('rm', [pipe]);
    const other = spawn('sleep', ['60'], { stdio: 'ignore' });
    try {
      const lock = join(runs, `other.${other.pid}.json`);
      const owner = {
        pid: other.pid,
        host: hostname(),
        command: 'apply',
        started: 'then',
        repositories: ['mod'],
      };
      writeFileSync(lock, JSON.stringify({ ...owner, padding: 'x'.repeat(2 * MiB) }));
      const { status, problems } = problemsOf(root, ['fleet', 'status']);
      expect(status).toBe(1);
      expect(problems[0]).toMatchObject({ code: 'FLEET_LOCKED', file: lock, line: 1, column: 1 });
      expect(problems[0]!.message).toMatch(
        /is \d+ bytes, larger than the 2 MiB a lock of a fleet file's repositories takes, not a run lock the fleet writes/,
      );
    } finally {
      other.kill();
    }
    expect(existsSync(join(root, '.pantograph-fleet', 'mod'))).toBe(false);
  });

  it("a clone's record that is a FIFO or a link is not read: the repository is run again and its record written anew", () => {
    const root = oneRepositoryFleet('fleet-bounded-state-');
    expect(pantograph(root, ['fleet', 'status']).status).toBe(0);
    const state = join(root, '.pantograph-fleet', 'mod', '.git', 'pantograph-fleet-state.json');
    const kept = readFileSync(state, 'utf8');
    // As it is, the record is reused: the next run says so.
    expect(pantograph(root, ['fleet', 'status']).stdout).toContain('in-line*');
    for (const spoil of [
      () => fifo(state),
      () => {
        writeFileSync(`${state}.elsewhere`, kept); // a record, but through a link
        symlinkSync(`${state}.elsewhere`, state);
      },
    ]) {
      execFileSync('rm', ['-f', state]);
      spoil();
      const r = pantographNearFifo(root, ['fleet', 'status']);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toContain('1 repository: 1 in-line\n'); // run again: not `in-line*`, not resumed
      expect(lstatSync(state).isFile()).toBe(true);
      expect(JSON.parse(readFileSync(state, 'utf8'))).toMatchObject({ version: 2 });
    }
  });
});
