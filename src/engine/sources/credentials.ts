/**
 * A password or token written into a source's URL in a committed file (`.sync.yml`, `fleet.yml`) is
 * readable by everyone who can read the repository, whatever Pantograph hides in its output. Said once,
 * where it is written, with what to do instead.
 */
import { holdsSecret, withoutCredentials } from '../../shared/url-credentials.js';
import { problem } from '../errors.js';
import type { Position } from '../model.js';
import type { Problem } from '../render-plan.js';

/** The warning for a URL at `position` of `file` (`.sync.yml`) holding a secret; undefined when it holds none. */
export function credentialsWarning(url: string, position: Position, file: string): Problem | undefined {
  if (!holdsSecret(url)) return undefined;
  const bare = withoutCredentials(url);
  const base = /^[a-z][a-z0-9+.-]*:\/\/[^/]*\//i.exec(bare)?.[0] ?? bare;
  return problem(
    'warning',
    'SOURCE_CREDENTIALS_IN_FILE',
    `this URL holds a password or token: committed with ${file}, it is readable by anyone who can read the repository`,
    position,
    `write it as ${bare} and give git the credentials where Pantograph runs: a credential helper ` +
      `(git config credential.helper), or git config url."<URL with the token>".insteadOf ${base} ` +
      '(in CI: GIT_CONFIG_COUNT=1, GIT_CONFIG_KEY_0 and GIT_CONFIG_VALUE_0 in the environment)',
  );
}
