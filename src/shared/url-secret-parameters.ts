/**
 * Secrets in a URL's query or fragment (`https://host/tpl.git?private_token=...`, `?access_token=`,
 * `&sig=` of a signed URL): some servers take a token there, and it is as secret as a password in the
 * user information. A parameter is a secret by its name: one of its words (`access_token`, `apiKey`,
 * `X-Amz-Signature`) is one a token, key, password or signature goes by.
 */

/** Words of a parameter's name that make its value a secret. */
const SECRET_WORDS: ReadonlySet<string> = new Set([
  'token',
  'tokens',
  'key',
  'apikey',
  'secret',
  'password',
  'passwd',
  'pwd',
  'pass',
  'passphrase',
  'sig',
  'signature',
  'auth',
  'authorization',
  'credential',
  'credentials',
  'session',
  'jwt',
]);

/** Endings that make a word one (`accesstoken`, `clientsecret`), where a short word (`key`) would not. */
const SECRET_ENDINGS = /(?:token|secret|password|passwd|apikey|signature|credentials?)$/;

/** Whether a query parameter named `name` holds a secret. */
export function isSecretParameter(name: string): boolean {
  let decoded = name;
  try {
    decoded = decodeURIComponent(name);
  } catch {
    // a malformed escape: judge the name as written
  }
  const words = decoded
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(/[^a-z0-9]+/);
  return words.some((w) => SECRET_WORDS.has(w) || SECRET_ENDINGS.test(w));
}

/**
 * A URL (`scheme://...` up to a blank or a quote) in running text. `file:` URLs hold no secrets: left as
 * they are, as their credentials are (url-credentials.ts).
 */
const URL_IN_TEXT = /\b([a-z][a-z0-9+.-]*):\/\/[^\s"<>]*/gi;

/** Punctuation a message puts after a URL (`'https://...'`, `...: error`): not part of a secret. */
const TRAILING = /['),.:;\]]+$/;

/** Every URL in `text` with the values of its secret parameters replaced by `***`. */
export function maskSecretParameters(text: string): string {
  return eachUrl(text, (name, value) => {
    if (!isSecretParameter(name) || value === '') return undefined;
    return `${name}=***${TRAILING.exec(value)?.[0] ?? ''}`;
  });
}

/** Every URL in `text` without its secret parameters (`?a=1&token=x&b=2` -> `?a=1&b=2`). */
export function withoutSecretParameters(text: string): string {
  return eachUrl(text, (name) => (isSecretParameter(name) ? '' : undefined));
}

/** Whether a URL in `text` gives a secret parameter a value. */
export function holdsSecretParameter(text: string): boolean {
  let found = false;
  eachUrl(text, (name, value) => {
    if (value !== '' && isSecretParameter(name)) found = true;
    return undefined;
  });
  return found;
}

/**
 * Rewrites the `name=value` parameters of the query and fragment of each URL in `text`: `rewrite` returns
 * the parameter's new text, `''` to drop it, or undefined to keep it.
 */
function eachUrl(text: string, rewrite: (name: string, value: string) => string | undefined): string {
  return text.replace(URL_IN_TEXT, (url: string, scheme: string) => {
    const start = url.search(/[?#]/);
    if (start < 0 || scheme.toLowerCase() === 'file') return url;
    let out = url.slice(0, start);
    // Each part starts with its separator: `?` opens the query, `#` the fragment, `&` the next parameter.
    // The first part kept in a section opens it, so dropping `?token=x` of `?token=x&b=2` leaves `?b=2`.
    let section = '?';
    let opened = false;
    for (const part of url.slice(start).split(/(?=[?#&])/)) {
      const separator = part[0]!;
      if (separator !== '&') {
        section = separator;
        opened = false;
      }
      const body = part.slice(1);
      const equals = body.indexOf('=');
      const replaced = equals > 0 ? rewrite(body.slice(0, equals), body.slice(equals + 1)) : undefined;
      if (replaced === '') continue;
      out += `${opened ? '&' : section}${replaced ?? body}`;
      opened = true;
    }
    return out;
  });
}
