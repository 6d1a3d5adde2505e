/**
 * Preloaded (`node --require`) into an `apply` that a test kills at a known point of its writes, instead of
 * after a delay that a loaded machine stretches (the kills then all landed before or after the writes).
 * `PANTOGRAPH_TEST_PAUSE=<how>:<n>` counts the writer's temporary files (`.<16 hex digits>.pantograph-tmp`,
 * src/sync/write.ts: the journal first, then each file, then the lock; not the run lock's
 * `.pantograph.lock.lck.<pid>.pantograph-tmp`) and, at the n-th:
 *   rename:<n>  pauses just before it is renamed into place (n - 1 renames done);
 *   write:<n>   pauses when half of its content is written (a torn temporary file).
 * Pausing prints `paused at <how>:<n> <path>` on standard error, then waits until the test kills it.
 */
const fs = require('node:fs');
const { isMainThread } = require('node:worker_threads');

const [how, count] = (process.env.PANTOGRAPH_TEST_PAUSE ?? '').split(':');
const at = Number(count);
/** A temporary file of the writer (writeFileAtomic), by its name. */
const isTemporary = (path) => /(^|\/)\.[0-9a-f]{16}\.pantograph-tmp$/.test(String(path));

function pause(path) {
  fs.writeSync(2, `paused at ${how}:${at} ${path}\n`);
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0); // forever: until SIGKILL
}

// Only the main thread writes the project (workers render).
if (isMainThread && (how === 'rename' || how === 'write') && at > 0) {
  const { openSync, renameSync, writeSync } = fs;
  let seen = 0;
  /** The open temporary files: descriptor -> path. */
  const temporary = new Map();
  fs.openSync = function (path, ...rest) {
    const fd = openSync.call(this, path, ...rest);
    if (isTemporary(path)) temporary.set(fd, String(path));
    return fd;
  };
  fs.writeSync = function (fd, buffer, offset, length, ...rest) {
    const path = temporary.get(fd);
    if (path !== undefined && how === 'write') {
      temporary.delete(fd); // its first write only
      if (++seen === at && typeof offset === 'number' && typeof length === 'number') {
        writeSync.call(this, fd, buffer, offset, Math.floor(length / 2));
        pause(path);
      }
    }
    return writeSync.call(this, fd, buffer, offset, length, ...rest);
  };
  fs.renameSync = function (from, to) {
    if (how === 'rename' && isTemporary(from) && ++seen === at) pause(String(to));
    return renameSync.call(this, from, to);
  };
}
