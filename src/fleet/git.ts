/**
 * Runs the system `git` for the fleet, never interactively: no terminal prompt, no password helper
 * window, ssh in batch mode, standard input closed and a time limit on every call. A remote that wants
 * credentials fails at once with a message instead of a run that hangs; URLs are printed with any
 * password in them masked.
 */
import { EngineError } from '../engine/errors.js';
// Loaded on first use: `import 'pantograph'` would otherwise load node:child_process (and node:net, the
// streams) for every user, fleet or not.
import { childProcess } from '../shared/builtins.js';
import { maskCredentials } from '../shared/url-credentials.js';

export interface GitRunner {
  /** Runs `git args...` in `cwd`; resolves with standard output, rejects with FLEET_GIT. */
  (cwd: string, args: readonly string[], options?: { readonly allowFailure?: false }): Promise<string>;
  (cwd: string, args: readonly string[], options: { readonly allowFailure: true }): Promise<GitOutcome>;
  /**
   * Runs several git commands one after the other, stopping at the first that fails, in one process
   * started from here (a shell): starting a process from a large Node process costs ~8 ms, from a small
   * shell far less. Resolves with their standard output, concatenated.
   */
  steps(cwd: string, steps: readonly (readonly string[])[]): Promise<string>;
}

export interface GitOutcome {
  readonly ok: boolean;
  readonly stdout: string;
  readonly stderr: string;
}

export interface GitRunnerOptions {
  readonly gitBinary?: string;
  readonly env?: NodeJS.ProcessEnv;
  /** Time limit of one git call (default 120 s). */
  readonly timeoutMs?: number;
  /**
   * The run was interrupted: a clone or fetch under way is stopped (it may take minutes, and leaves
   * nothing half done that the next run does not redo) and rejects with FLEET_INTERRUPTED. Other calls
   * (checkouts, commits, pushes) finish: they are short, and stopping one half way is what would leave a
   * clone or a remote in a state of no one's making.
   */
  readonly signal?: AbortSignal;
}

/** The git commands that talk to a remote, stopped when the run is interrupted. */
const STOPPABLE = new Set(['clone', 'fetch', 'ls-remote']);

/** A clone or fetch stopped because the run was interrupted. */
export class GitInterrupted extends EngineError {
  constructor(what: string) {
    super('FLEET_INTERRUPTED', `\`${what}\` was stopped: the run was interrupted`);
  }
}

const MAX_OUTPUT = 16 * 1024 * 1024;

export function gitRunner(options: GitRunnerOptions = {}): GitRunner {
  const bin = options.gitBinary ?? 'git';
  const timeoutMs = options.timeoutMs ?? 120_000;
  const env: NodeJS.ProcessEnv = {
    ...(options.env ?? process.env),
    GIT_TERMINAL_PROMPT: '0',
    // A password window (an editor's askpass) would wait for someone: `false` refuses at once.
    GIT_ASKPASS: 'false',
    SSH_ASKPASS: 'false',
    GCM_INTERACTIVE: 'never',
    GIT_SSH_COMMAND:
      (options.env ?? process.env).GIT_SSH_COMMAND ?? 'ssh -o BatchMode=yes -o ConnectTimeout=20',
    LC_ALL: 'C',
  };
  /** Runs `command argv` (git, or a shell running git steps); `describe` names the failing step. */
  const exec = (
    command: string,
    argv: readonly string[],
    cwd: string,
    describe: (stderr: string) => { what: string; stderr: string },
    opts?: { readonly allowFailure?: boolean; readonly stoppable?: boolean },
  ) =>
    new Promise<string | GitOutcome>((resolvePromise, reject) => {
      const signal = opts?.stoppable === true ? options.signal : undefined;
      if (signal?.aborted) {
        reject(new GitInterrupted(maskCredentials(describe('').what)));
        return;
      }
      // Its own process group: a time limit kills the shell's git and git's own children too.
      const child = childProcess().spawn(command, argv, {
        cwd,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      });
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      let size = 0;
      const collect = (into: Buffer[]) => (chunk: Buffer) => {
        size += chunk.length;
        if (size <= MAX_OUTPUT) into.push(chunk);
      };
      child.stdout.on('data', collect(out));
      child.stderr.on('data', collect(err));
      let timedOut = false;
      let stopped = false;
      const killGroup = (how: NodeJS.Signals) => {
        try {
          if (child.pid !== undefined) process.kill(-child.pid, how);
        } catch {
          child.kill(how);
        }
      };
      const timer = setTimeout(() => {
        timedOut = true;
        killGroup('SIGKILL');
      }, timeoutMs);
      // git removes its lock files and a clone's half-made directory on SIGTERM.
      const stop = () => {
        stopped = true;
        killGroup('SIGTERM');
      };
      signal?.addEventListener('abort', stop, { once: true });
      child.on('error', (e) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', stop);
        reject(
          new EngineError('FLEET_GIT', `cannot run ${command}: ${e.message}`, {
            hint: 'install git, or make sure it is on PATH',
          }),
        );
      });
      child.on('close', (code) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', stop);
        const stdout = Buffer.concat(out).toString('utf8');
        const stderr = Buffer.concat(err).toString('utf8');
        if (stopped) {
          reject(new GitInterrupted(maskCredentials(describe(stderr).what)));
          return;
        }
        const ok = code === 0 && !timedOut;
        if (opts?.allowFailure === true) {
          resolvePromise({ ok, stdout, stderr });
          return;
        }
        if (ok) {
          resolvePromise(stdout);
          return;
        }
        const failed = describe(stderr);
        const reason = timedOut
          ? `timed out after ${Math.round(timeoutMs / 1000)} s`
          : firstLines(maskCredentials(failed.stderr)) || `exit ${code}`;
        reject(
          // The command as a code span: folded at a terminal's width, it stays whole (src/cli/wrap.ts).
          new EngineError('FLEET_GIT', `\`${maskCredentials(failed.what)}\` failed: ${reason}`, {
            hint: hintFor(failed.stderr, timedOut),
          }),
        );
      });
    });
  // A commit message is named by its first line: the whole of it would bury the reason.
  const commandLine = (args: readonly string[]) =>
    `git ${args.map((a) => (a.includes('\n') ? `"${a.slice(0, a.indexOf('\n'))}..."` : a)).join(' ')}`;
  const run = (cwd: string, args: readonly string[], opts?: { readonly allowFailure?: boolean }) =>
    exec(bin, args, cwd, (stderr) => ({ what: commandLine(args), stderr }), {
      ...opts,
      stoppable: STOPPABLE.has(args[0] ?? ''),
    });
  const steps = async (cwd: string, list: readonly (readonly string[])[]): Promise<string> => {
    if (list.length === 1) return (await run(cwd, list[0]!)) as string;
    const marker = '@@pantograph-git-step';
    const script = [
      'set -e',
      ...list.map(
        (args, i) => `printf '\\n${marker} ${i}\\n' >&2; ${[bin, ...args].map(shellQuote).join(' ')}`,
      ),
    ].join('\n');
    const describe = (stderr: string) => {
      const at = stderr.lastIndexOf(`${marker} `);
      const index = at < 0 ? 0 : Number.parseInt(stderr.slice(at + marker.length + 1), 10);
      const rest = at < 0 ? stderr : stderr.slice(stderr.indexOf('\n', at) + 1);
      return { what: commandLine(list[index] ?? list[0]!), stderr: rest };
    };
    // The markers go to standard error: standard output is the steps' own.
    return (await exec('sh', ['-c', script], cwd, describe, {
      stoppable: list.some((args) => STOPPABLE.has(args[0] ?? '')),
    })) as string;
  };
  return Object.assign(run, { steps }) as GitRunner;
}

/** One shell word: single-quoted, a quote inside written as '\''. */
function shellQuote(word: string): string {
  return `'${word.replace(/'/g, "'\\''")}'`;
}

function firstLines(text: string): string {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('hint:'))
    .slice(0, 3)
    .join('; ');
}

function hintFor(stderr: string, timedOut: boolean): string | undefined {
  if (timedOut) return 'the remote did not answer in time; check the URL and the network';
  if (
    /terminal prompts disabled|could not read (Username|Password)|Authentication failed|Permission denied/i.test(
      stderr,
    )
  ) {
    return 'the remote asks for credentials: give git a credential helper or an ssh key that works without a prompt';
  }
  if (/not found|does not appear to be a git repository|Could not resolve host/i.test(stderr)) {
    return 'check the repository URL in the fleet file';
  }
  return undefined;
}
