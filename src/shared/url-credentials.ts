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
 */

/**
 * `scheme://` and the authority up to its last `@` (a raw `@` in a password is still inside it). Only what
 * ends an authority (`/ ? #`), blanks and what no URL holds raw (`" < >`) stop it: a password may hold a
 * `'` (RFC 3986 allows it), or a backtick or backslash git takes as they are.
 */
const USERINFO = /\b([a-z][a-z0-9+.-]*):\/\/([^\s/?#"<>]*)@/gi;

/** Schemes whose user name is a login name, not a secret. */
const SSH = /^(?:ssh|git\+ssh|ssh\+git)$/i;

/** Tokens forges issue, told apart from a user name by their prefix, or by a length no login name has. */
const TOKEN = /^(?:gh[pousr]_|github_pat_|glpat-|glptt-)|^[A-Za-z0-9_-]{32,}$/;

/** Every URL in `text` with its password (or token given as its user name) replaced by `***`. */
export function maskCredentials(text: string): string {
  return text.replace(USERINFO, (whole: string, scheme: string, userinfo: string) => {
    if (scheme.toLowerCase() === 'file') return whole;
    const colon = userinfo.indexOf(':');
    if (colon >= 0) return `${scheme}://${userinfo.slice(0, colon)}:***@`;
    return SSH.test(scheme) ? whole : `${scheme}://***@`;
  });
}

/**
 * A location's identity: the URL without its credentials (`https://git.example.com/tpl.git`); an ssh URL
 * keeps its login name. Anything that is not a URL (a path, `git@host:org/repo`) is returned as it is.
 */
export function withoutCredentials(location: string): string {
  return location.replace(USERINFO, (whole: string, scheme: string, userinfo: string) => {
    if (scheme.toLowerCase() === 'file') return whole;
    if (!SSH.test(scheme)) return `${scheme}://`;
    const colon = userinfo.indexOf(':');
    return colon >= 0 ? `${scheme}://${userinfo.slice(0, colon)}@` : whole;
  });
}

/** Whether two locations name the same repository, whatever credentials either carries. */
export function sameLocation(a: string, b: string): boolean {
  return a === b || withoutCredentials(a) === withoutCredentials(b);
}

/**
 * Whether a location carries a secret worth a warning: a password, or a user name that is a token (a
 * forge's token prefix, or 32 characters and more). A plain user name (`https://alice@host`) is not one.
 */
export function holdsSecret(location: string): boolean {
  for (const [, scheme = '', userinfo = ''] of location.matchAll(USERINFO)) {
    if (scheme.toLowerCase() === 'file') continue;
    const colon = userinfo.indexOf(':');
    if (colon >= 0 && colon < userinfo.length - 1) return true;
    if (colon < 0 && !SSH.test(scheme) && TOKEN.test(userinfo)) return true;
  }
  return false;
}
