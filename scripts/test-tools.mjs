#!/usr/bin/env node
/**
 * Runs before `npm test`: the suite checks the default templates' Ruby files with `ruby -c` and uses
 * `git` for real repositories. On a fresh machine of this project's kind (Debian, as root) a missing Ruby
 * is installed with apt-get, so that the README's test command is the whole set-up; elsewhere this says
 * what to install and stops.
 */
import { spawnSync } from 'node:child_process';

const has = (tool) => !spawnSync(tool, ['--version'], { stdio: 'ignore' }).error;

if (!has('git')) {
  console.error('the tests need git: install it (Debian: apt-get install -y git)');
  process.exit(1);
}
if (!has('ruby')) {
  const canInstall = process.getuid?.() === 0 && has('apt-get');
  if (!canInstall) {
    console.error(
      'the tests need Ruby (they run `ruby -c` on generated files): install it, e.g. apt-get install -y ruby',
    );
    process.exit(1);
  }
  console.error('Ruby is missing: installing it with apt-get (the tests run `ruby -c` on generated files)');
  for (const args of [
    ['update', '-qq'],
    ['install', '-y', '-qq', 'ruby'],
  ]) {
    const r = spawnSync('apt-get', args, { stdio: 'inherit' });
    if (r.status !== 0) process.exit(r.status ?? 1);
  }
}
