#!/usr/bin/env node
// Kept tiny so start-up stays fast: everything else is loaded by the command that needs it. A CommonJS
// file, not an ES module: Node starts a CommonJS entry without its ES module loader, ~6 ms sooner. The
// command line comes from one bundled file with a code cache (see load-bundle.cts), `epp render`, run
// once per template by scripts and CI, from a smaller one, and a `status` whose answer is kept
// (status-memo.ts) from a tiny one.
import bundles = require('./load-bundle.cjs');

const args = process.argv.slice(2);

async function run(): Promise<number> {
  if (args[0] === 'epp' && args[1] === 'render') {
    const code = await (await bundles.loadFastPath()).fastEppRender(args.slice(2));
    if (code !== undefined) return code;
  }
  const lookUp = args.includes('status');
  if (lookUp) {
    const code = (await bundles.loadFastStatus()).keptStatus(args);
    if (code !== undefined) return code;
  }
  return (await bundles.loadMain()).main(args, undefined, { statusMemoMissed: lookUp });
}

void run().then((code) => {
  process.exitCode = code;
});
