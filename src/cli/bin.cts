#!/usr/bin/env node
// Kept tiny so start-up stays fast: everything else is loaded by the command that needs it. A CommonJS
// file, not an ES module: Node starts a CommonJS entry without its ES module loader, ~6 ms sooner. The
// command line comes from one bundled file with a code cache (see load-bundle.cts), `epp render`, run
// once per template by scripts and CI, from a smaller one, and a `status` or `apply` whose answer is
// kept (command-memo.ts) from a tiny one.
import bundles = require('./load-bundle.cjs');

const args = process.argv.slice(2);

async function run(): Promise<number> {
  if (args[0] === 'epp' && args[1] === 'render') {
    const code = await (await bundles.loadFastPath()).fastEppRender(args.slice(2));
    if (code !== undefined) return code;
  }
  const command = commandName(args);
  const lookUp = command === 'status' || command === 'apply';
  if (lookUp) {
    const code = (await bundles.loadFastAnswer()).keptAnswer(command, args);
    if (code !== undefined) return code;
  }
  return (await bundles.loadMain()).main(args, undefined, { memoMissed: lookUp });
}

/**
 * The command the arguments name: the first word after the global options (`-C DIR`, `--format F` take a
 * value). `fleet status` is not `status`; anything unusual only costs the memo lookup or skips it.
 */
function commandName(argv: readonly string[]): string | undefined {
  let i = 0;
  while (i < argv.length && argv[i]!.startsWith('-')) {
    i += argv[i] === '-C' || argv[i] === '--dir' || argv[i] === '--format' ? 2 : 1;
  }
  return argv[i];
}

void run().then((code) => {
  process.exitCode = code;
});
