#!/usr/bin/env node
/**
 * Runs before `npm test`: the suite checks the default templates' Ruby files with `ruby -c`, uses `git`
 * for real repositories, Debian's `chromium` for the playground's browser tests and `zsh` and `fish` for
 * the shell completion's. On a fresh machine of this project's kind (Debian, as root) what is missing is
 * installed with apt-get, so that the README's test command is the whole set-up; elsewhere this says what
 * to install and stops.
 */
import { spawnSync } from 'node:child_process';

const has = (tool) => !spawnSync(tool, ['--version'], { stdio: 'ignore' }).error;

if (!has('git')) {
  console.error('the tests need git: install it (Debian: apt-get install -y git)');
  process.exit(1);
}
/** Debian packages the tests need: installed with apt-get when missing on a machine of this kind. */
const needed = [
  {
    tool: 'ruby',
    pkg: 'ruby',
    why: "they run `ruby -c` on generated files, and render PDK's ERB as the oracle",
  },
  {
    tool: 'zsh',
    pkg: 'zsh',
    why: '`pantograph completion zsh` is tested in a real zsh',
  },
  {
    tool: 'fish',
    pkg: 'fish',
    why: '`pantograph completion fish` is tested in a real fish',
  },
  {
    tool: 'chromium',
    pkg: 'chromium',
    why: 'the EPP playground is tested in a real browser (playwright-core)',
  },
].filter((n) => !has(n.tool));
if (needed.length > 0) {
  const canInstall = process.getuid?.() === 0 && has('apt-get');
  if (!canInstall) {
    for (const n of needed)
      console.error(`the tests need ${n.tool} (${n.why}): install it, e.g. apt-get install -y ${n.pkg}`);
    process.exit(1);
  }
  console.error(
    `installing ${needed.map((n) => n.pkg).join(' and ')} with apt-get: ${needed.map((n) => n.why).join('; ')}`,
  );
  for (const args of [
    ['update', '-qq'],
    ['install', '-y', '-qq', ...needed.map((n) => n.pkg)],
  ]) {
    const r = spawnSync('apt-get', args, {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    if (r.status !== 0) process.exit(r.status ?? 1);
  }
}
