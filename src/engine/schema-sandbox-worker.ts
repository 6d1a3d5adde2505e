/**
 * The worker of bounded schema validation (schema-sandbox.ts): checks data against an untrusted template's
 * JSON Schema with ajv, as the main thread would, and keeps in the shared state which of the schema's
 * regular expressions is running, so that one that backtracks past the time limit can be named.
 */
import { type MessagePort, workerData } from 'node:worker_threads';
import type { ValidateFunction } from 'ajv';
import { createAjv, violations } from './json-schema.js';
import { DONE, READY, RUNNING, type ValidationJob, type ValidationReply } from './schema-sandbox.js';

const { port, state } = workerData as { port: MessagePort; state: Int32Array };

/** ajv's regular expressions, each noting itself in `state` while it runs (1-based index, 0 for none). */
function trackedRegExp(patterns: readonly string[]) {
  const engine = (pattern: string, flags: string) => {
    const re = new RegExp(pattern, flags);
    const id = patterns.indexOf(pattern) + 1;
    return {
      test(s: string): boolean {
        Atomics.store(state, RUNNING, id);
        const matched = re.test(s);
        Atomics.store(state, RUNNING, 0);
        return matched;
      },
      toString: () => re.toString(),
    };
  };
  engine.code = 'trackedRegExp';
  return engine;
}

/**
 * Each schema compiled once, by an ajv of its own: ajv shares a compiled pattern among the schemas of one
 * instance, which would keep another schema's note of which pattern runs.
 */
const compiled = new Map<string, ValidateFunction>();

function validatorOf(job: ValidationJob): ValidateFunction {
  const key = `${job.draft}\0${JSON.stringify(job.schema)}`;
  let fn = compiled.get(key);
  if (fn === undefined) {
    const ajv = createAjv(job.draft, job.schema.$schema, trackedRegExp(job.patterns));
    // Compiled without its `$id`, as the main thread does (two templates may share one).
    const { $id: _id, ...rest } = job.schema;
    fn = ajv.compile(rest);
    compiled.set(key, fn);
  }
  return fn;
}

port.on('message', (job: ValidationJob) => {
  let reply: ValidationReply;
  try {
    const fn = validatorOf(job);
    reply = { violations: fn(job.data) ? [] : violations(fn.errors ?? []) };
  } catch (e) {
    reply = { failure: e instanceof Error ? e.message : String(e) };
  }
  port.postMessage(reply);
  Atomics.store(state, DONE, 1);
  Atomics.notify(state, DONE);
});

// Started: the time limit of each validation counts from now on (see schema-sandbox.ts).
Atomics.store(state, READY, 1);
Atomics.notify(state, READY);
