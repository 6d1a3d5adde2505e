/**
 * Where a JavaScript hook was when it was stopped at its time limit: the clue an author needs, since a
 * terminated worker leaves no stack. A hook busy in a loop is paused through the inspector (the main
 * thread's session attaches to the worker: `NodeWorker` domain) and its innermost frame in a file is
 * where it was; a hook whose event loop is idle was waiting for a promise that never settled, and has no
 * line to point at but its `export default`. Runs only after a time limit was hit.
 */

import { fileURLToPath } from 'node:url';
import type { Worker } from 'node:worker_threads';
import type { Position } from './model.js';

/** Where a stopped hook was: busy at a line (in a function), or idle, waiting. */
export type HookStoppedAt =
  | { readonly kind: 'running'; readonly position: Position; readonly functionName: string }
  | { readonly kind: 'waiting' };

/** How long the worker may take to pause: Debugger.enable lists its scripts first (~50-200 ms here). */
const PAUSE_WAIT_MS = 1500;
/** How long the event loop is watched to tell a busy hook from one that waits. */
const IDLE_SAMPLE_MS = 100;

interface CallFrame {
  readonly functionName: string;
  readonly url?: string;
  readonly location: {
    readonly scriptId: string;
    readonly lineNumber: number;
    readonly columnNumber: number;
  };
}

/** Where `worker` (running a hook, past its limit) is; undefined when that cannot be told. */
export async function whereHookStopped(worker: Worker): Promise<HookStoppedAt | undefined> {
  // Watched before the inspector attaches, whose own messages keep the worker's loop busy a while.
  const before = worker.performance.eventLoopUtilization();
  await new Promise((resolve) => setTimeout(resolve, IDLE_SAMPLE_MS));
  if (worker.performance.eventLoopUtilization(before).utilization < 0.5) return { kind: 'waiting' };
  return pausedAt(worker);
}

/** The worker paused through the inspector: its innermost frame in a file. */
function pausedAt(worker: Worker): Promise<HookStoppedAt | undefined> {
  let inspector: typeof import('node:inspector');
  try {
    inspector = process.getBuiltinModule('node:inspector') as typeof import('node:inspector');
    if (typeof inspector?.Session !== 'function') return Promise.resolve(undefined);
  } catch {
    return Promise.resolve(undefined); // a Node built without the inspector
  }
  return new Promise((resolve) => {
    const session = new inspector.Session();
    const urls = new Map<string, string>();
    let sessionId: string | undefined;
    let settled = false;
    const done = (where: HookStoppedAt | undefined) => {
      if (settled) return;
      settled = true;
      clearTimeout(giveUp);
      // Detaching resumes the paused worker, which is then terminated.
      try {
        if (sessionId !== undefined) session.post('NodeWorker.detach', { sessionId });
        session.disconnect();
      } catch {
        // already gone
      }
      resolve(where);
    };
    const giveUp = setTimeout(() => done(undefined), PAUSE_WAIT_MS);
    try {
      session.connect();
      let id = 0;
      const send = (method: string) =>
        session.post('NodeWorker.sendMessageToWorker', {
          sessionId: sessionId!,
          message: JSON.stringify({ id: ++id, method, params: {} }),
        });
      session.on('NodeWorker.attachedToWorker', ({ params }) => {
        // `workerId` counts per session; the title is Node's `[worker <threadId>]`.
        const thread = /^\[worker (\d+)\]/.exec(params.workerInfo.title)?.[1];
        if (thread !== String(worker.threadId) || sessionId !== undefined) return;
        sessionId = params.sessionId;
        send('Debugger.enable');
        send('Debugger.pause');
      });
      session.on('NodeWorker.receivedMessageFromWorker', ({ params }) => {
        if (params.sessionId !== sessionId) return;
        const message = JSON.parse(params.message) as {
          method?: string;
          params?: { scriptId: string; url: string; callFrames: CallFrame[] };
        };
        if (message.method === 'Debugger.scriptParsed')
          urls.set(message.params!.scriptId, message.params!.url);
        else if (message.method === 'Debugger.paused')
          done(innermostFileFrame(message.params!.callFrames, urls));
      });
      session.post('NodeWorker.enable', { waitForDebuggerOnStart: false });
    } catch {
      done(undefined);
    }
  });
}

/** The innermost frame in a file (the hook or a module it imports), not Node's own code nor the worker's. */
function innermostFileFrame(
  frames: readonly CallFrame[],
  urls: Map<string, string>,
): HookStoppedAt | undefined {
  for (const frame of frames) {
    const url = frame.url || urls.get(frame.location.scriptId) || '';
    if (!url.startsWith('file:')) continue;
    // The worker imports hooks with a `?mtime=` query, which is no part of the path.
    const file = fileURLToPath(url.replace(/[?#].*$/, ''));
    const { lineNumber, columnNumber } = frame.location;
    return {
      kind: 'running',
      position: { file, line: lineNumber + 1, column: columnNumber + 1 },
      functionName: frame.functionName,
    };
  }
  return undefined;
}
