/**
 * Node built-in modules that most runs never use, loaded when first used. Importing them at start-up cost
 * every command milliseconds on this machine (`node:child_process` ~8 ms, as it pulls in `node:net` and the
 * streams; `node:worker_threads` ~8 ms) though `status` on an unchanged project neither starts a process
 * nor a worker. Node >= 20.16 has `process.getBuiltinModule`.
 */
export function childProcess(): typeof import('node:child_process') {
  return process.getBuiltinModule('node:child_process') as typeof import('node:child_process');
}

export function workerThreads(): typeof import('node:worker_threads') {
  return process.getBuiltinModule('node:worker_threads') as typeof import('node:worker_threads');
}
