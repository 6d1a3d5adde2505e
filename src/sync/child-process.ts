/**
 * `node:child_process`, loaded when first used. Importing it at start-up costs every command a few
 * milliseconds (it pulls in `node:net` and friends) though most runs never start a process: `status` on an
 * unchanged project does not. Node >= 20.16 has `process.getBuiltinModule`.
 */
export function childProcess(): typeof import('node:child_process') {
  return process.getBuiltinModule('node:child_process') as typeof import('node:child_process');
}
