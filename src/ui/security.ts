/**
 * What keeps the local web interface the user's own. The page's files (HTML, script, styles, the
 * playground) hold no secret and are served to any request that passes the Host check. The API is what
 * reads and changes the project: every request to it must carry the random token `pantograph ui` printed
 * in a header (the page takes it from its URL and keeps it in the tab's sessionStorage, which is per
 * origin: scheme, host and port), must come from the page's own origin when it says one, may not be
 * large, and must say its body is JSON; the Host header must be the loopback address the server listens
 * on (a DNS-rebinding site cannot pass). No cookie is ever set or read: cookies ignore ports (RFC 6265
 * §8.5), so a cookie for 127.0.0.1 would be sent to every other server on 127.0.0.1 (docs/decisions.md,
 * "Security").
 */
import { timingSafeEqual } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';

export const TOKEN_HEADER = 'x-pantograph-token';
export const MAX_BODY = 1024 * 1024;

export function guard(token: string, port: () => number): MiddlewareHandler {
  const expected = Buffer.from(token);
  const same = (given: string | null | undefined) => {
    if (!given) return false;
    const bytes = Buffer.from(given);
    return bytes.length === expected.length && timingSafeEqual(bytes, expected);
  };
  return async (c, next) => {
    const host = c.req.header('host') ?? '';
    const allowedHosts = [`127.0.0.1:${port()}`, `localhost:${port()}`];
    if (!allowedHosts.includes(host)) {
      // A DNS-rebinding page reaches this server under its own name: only the loopback address passes.
      return c.json({ error: `unknown host: the Host header must be ${allowedHosts.join(' or ')}` }, 403);
    }
    const origin = c.req.header('origin');
    if (origin !== undefined && !allowedHosts.some((h) => origin === `http://${h}`)) {
      return c.json(
        {
          error: `cross-origin request refused: only the page of ${allowedHosts.map((h) => `http://${h}`).join(' or ')} may call the API`,
        },
        403,
      );
    }
    const safe = c.req.method === 'GET' || c.req.method === 'HEAD';
    const isApi = c.req.path.startsWith('/api/');
    // The page's own files: no secret in them, no token asked (the page shows what to do without one).
    if (!isApi) {
      if (!safe) return wrongMethod(c, 'GET, HEAD', 'the page files are read with GET');
      await next();
      return undefined;
    }
    // The API: only the header, which no other site can make a browser send (never the URL, never a
    // cookie: another server on 127.0.0.1 receives the cookies of this one).
    if (!same(c.req.header(TOKEN_HEADER))) {
      return c.json({ error: 'a valid token is required: open the URL `pantograph ui` printed' }, 401);
    }
    // Before the body's length: a GET or a DELETE of the API was refused as a body without a length.
    if (c.req.method !== 'POST') return wrongMethod(c, 'POST', 'the API takes a POST of a JSON object');
    const length = Number(c.req.header('content-length') ?? 'NaN');
    if (!Number.isFinite(length) || length > MAX_BODY) {
      return c.json({ error: `a request body must say its length and be at most ${MAX_BODY} bytes` }, 413);
    }
    // The body is read as JSON: a form's or a text's body was read so too, whatever it said it was.
    const type = c.req.header('content-type') ?? '';
    if (!/^application\/json\s*(;|$)/i.test(type)) {
      const said = type === '' ? 'no content-type' : `content-type '${type.slice(0, 100)}'`;
      return c.json(
        { error: `a request body must be JSON, sent as content-type application/json, not ${said}` },
        415,
      );
    }
    await next();
    return undefined;
  };
}

/** 405, with the methods the path takes (`Allow`) and a message saying so. */
function wrongMethod(c: Context, allow: string, why: string): Response {
  c.header('allow', allow);
  return c.json({ error: `${c.req.method} ${c.req.path} is refused: ${why}` }, 405);
}
