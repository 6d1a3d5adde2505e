/**
 * Credentials in URLs (`https://user:token@host/repo.git`): git takes them, and nothing Pantograph prints,
 * records or commits may hold them. Two views of a location, for two uses:
 *
 * - `maskCredentials`: for people reading a message about it (errors, hints, progress lines) and for any
 *   text that may quote one (git's own messages, a code frame of `.sync.yml`): `https://user:***@host`,
 *   so that it still shows that credentials were given, and whose.
 * - `withoutCredentials`: its identity, what names the repository whatever the credentials: what the lock
 *   records, templates read, fleet commits say and sources are compared by, so that a rotated token
 *   changes nothing.
 *
 * A user name alone is masked and removed too (`https://<token>@github.com` is how GitHub takes a token),
 * except for ssh, whose user is a login name (`ssh://git@host`), never a secret: ssh authenticates with
 * keys. git's scp-like form (`git@host:org/repo`) has no password, and `file://` URLs no credentials.
 * Query parameters named as secrets (`?access_token=`, `&sig=`) are credentials too
 * (url-secret-parameters.ts), and so is a password git rejects the URL for (one holding a `/`).
 */
import {
  holdsSecretParameter,
  maskSecretParameters,
  withoutSecretParameters,
} from './url-secret-parameters.js';

/**
 * `scheme://` and the authority up to its last `@` (a raw `@` in a password is still inside it). Only what
 * ends an authority (`/ ? #`), blanks and what no URL holds raw (`" < >`) stop it: a password may hold a
 * `'` (RFC 3986 allows it), or a backtick or backslash git takes as they are.
 */
const USERINFO = /\b([a-z][a-z0-9+.-]*):\/\/([^\s/?#"<>]*)@/gi;

/**
 * A password holding a `/`, `?` or `#` (`https://bot:se/cret@host`): git rejects the URL, whose authority
 * ends at that character, and quotes it whole in its message. Read as a user name, a password up to the
 * character and the rest up to the URL's last `@`, unless what follows the `:` is a port
 * (`https://host:8080/path@x` is a path with an `@`).
 */
const LOOSE_USERINFO = /\b([a-z][a-z0-9+.-]*):\/\/([^\s/?#"<>:@]*):([^\s/?#"<>@]*)([/?#][^\s"<>]*)@/gi;

/** Schemes whose user name is a login name, not a secret. */
const SSH = /^(?:ssh|git\+ssh|ssh\+git)$/i;

/** Tokens forges issue, told apart from a user name by their prefix, or by a length no login name has. */
const TOKEN = /^(?:gh[pousr]_|github_pat_|glpat-|glptt-)|^[A-Za-z0-9_-]{32,}$/;

/**
 * Every URL in `text` with its password (or token given as its user name), and the values of its secret
 * query parameters, replaced by `***`.
 */
export function maskCredentials(text: string): string {
  const masked = text
    .replace(USERINFO, (whole: string, scheme: string, userinfo: string) => {
      if (scheme.toLowerCase() === 'file') return whole;
      const colon = userinfo.indexOf(':');
      if (colon >= 0) return `${scheme}://${userinfo.slice(0, colon)}:***@`;
      return SSH.test(scheme) ? whole : `${scheme}://***@`;
    })
    .replace(LOOSE_USERINFO, (whole: string, scheme: string, user: string, head: string) =>
      isLoosePassword(scheme, head) ? `${scheme}://${user}:***@` : whole,
    );
  return maskSecretParameters(masked);
}

/**
 * A location's identity: the URL without its credentials (`https://git.example.com/tpl.git`) and without
 * its secret query parameters; an ssh URL keeps its login name. Anything that is not a URL (a path,
 * `git@host:org/repo`) is returned as it is.
 */
export function withoutCredentials(location: string): string {
  const bare = location
    .replace(USERINFO, (whole: string, scheme: string, userinfo: string) => {
      if (scheme.toLowerCase() === 'file') return whole;
      if (!SSH.test(scheme)) return `${scheme}://`;
      const colon = userinfo.indexOf(':');
      return colon >= 0 ? `${scheme}://${userinfo.slice(0, colon)}@` : whole;
    })
    .replace(LOOSE_USERINFO, (whole: string, scheme: string, user: string, head: string) => {
      if (!isLoosePassword(scheme, head)) return whole;
      return SSH.test(scheme) ? `${scheme}://${user}@` : `${scheme}://`;
    });
  return withoutSecretParameters(bare);
}

/** Whether two locations name the same repository, whatever credentials either carries. */
export function sameLocation(a: string, b: string): boolean {
  return a === b || withoutCredentials(a) === withoutCredentials(b);
}

/**
 * Whether a location carries a secret worth a warning: a password, a user name that is a token (a forge's
 * token prefix, or 32 characters and more), or a secret query parameter (`?private_token=...`). A plain
 * user name (`https://alice@host`) is not one.
 */
export function holdsSecret(location: string): boolean {
  for (const [, scheme = '', userinfo = ''] of location.matchAll(USERINFO)) {
    if (scheme.toLowerCase() === 'file') continue;
    const colon = userinfo.indexOf(':');
    if (colon >= 0 && colon < userinfo.length - 1) return true;
    if (colon < 0 && !SSH.test(scheme) && TOKEN.test(userinfo)) return true;
  }
  for (const [, scheme = '', , head = ''] of location.matchAll(LOOSE_USERINFO)) {
    if (isLoosePassword(scheme, head)) return true;
  }
  return holdsSecretParameter(location);
}

/** Whether `head`, after `scheme://user:`, starts a password (not a port) in a URL git rejects. */
function isLoosePassword(scheme: string, head: string): boolean {
  return scheme.toLowerCase() !== 'file' && !/^\d*$/.test(head);
}
