#!/usr/bin/env node
// Kept tiny so start-up stays fast: everything else is imported by the command that needs it.
const args = process.argv.slice(2);

let code: number | undefined;
if (args[0] === 'epp' && args[1] === 'render') {
  const { loadFastPath } = await import('./load-fast-path.js');
  code = await (await loadFastPath()).fastEppRender(args.slice(2));
}
if (code === undefined) code = await (await import('./main.js')).main(args);
process.exitCode = code;
