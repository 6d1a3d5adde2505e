/**
 * What the page says to do when the project does not load for a reason no edit of a file fixes: the
 * server was started without what the project needs (`--trust` for a repository's Ruby, `--template-url`
 * for a V1 or modulesync `.sync.yml`). "Fix it, then reload" sent the user to files that were fine.
 */
import type { EngineError } from '../engine/errors.js';

export function restartHint(e: EngineError): string | undefined {
  switch (e.code) {
    case 'V1_UNTRUSTED':
      return "the page runs a repository's Ruby only when `pantograph ui` is started trusting it: if you trust it, stop `pantograph ui` (Ctrl-C), start it again as `pantograph ui --trust`, then reload";
    case 'SYNC_V1':
    case 'SYNC_MODULESYNC':
      return 'the page was started with no repository to render this .sync.yml: stop `pantograph ui` (Ctrl-C) and start it again as `pantograph ui --template-url DIR|URL[#REF]` (with --trust for a git URL), then reload; after one `pantograph apply --template-url ...`, plain `pantograph ui` finds it in .pantograph.lock';
    default:
      return undefined;
  }
}
