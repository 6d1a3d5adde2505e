/**
 * What keeps the local web interface the user's own (as Jupyter does it): a random token in the URL it
 * prints, required on every request (the URL sets it as a strict, HTTP-only cookie for the page's own
 * scripts and styles); state-changing requests must carry it in a header (a form or an
 * image on another site cannot set one), must come from the page's own origin, and may not be large; the
 * Host header must be the loopback address the server listens on (a DNS-rebinding site cannot pass).
 */
import { timingSafeEqual } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';

export const TOKEN_HEADER = 'x-pantograph-token';
export const MAX_BODY = 1024 * 1024;
const COOKIE = 'pantograph_token';

function cookieToken(header: string | undefined): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === COOKIE) return value.join('=');
  }
  return undefined;
}

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
    if (!allowedHosts.includes(host)) return c.json({ error: 'unknown host' }, 403);
    const origin = c.req.header('origin');
    if (origin !== undefined && !allowedHosts.some((h) => origin === `http://${h}`)) {
      return c.json({ error: 'cross-origin request refused' }, 403);
    }
    const safe = c.req.method === 'GET' || c.req.method === 'HEAD';
    const headerToken = c.req.header(TOKEN_HEADER);
    const queryToken = c.req.query('token');
    // Reading: the token in the header, the URL, or the cookie the URL set (the page's scripts and styles
    // load with it). Changing: only the header, which no other site can make a browser send.
    const ok = safe
      ? same(headerToken) || same(queryToken) || same(cookieToken(c.req.header('cookie')))
      : same(headerToken);
    if (!ok) return c.json({ error: 'a valid token is required: open the URL `pantograph ui` printed' }, 401);
    if (safe && same(queryToken)) {
      c.header('set-cookie', `${COOKIE}=${token}; Path=/; HttpOnly; SameSite=Strict`);
    }
    if (!safe) {
      const length = Number(c.req.header('content-length') ?? 'NaN');
      if (!Number.isFinite(length) || length > MAX_BODY) {
        return c.json({ error: `a request body must say its length and be at most ${MAX_BODY} bytes` }, 413);
      }
    }
    await next();
    return undefined;
  };
}
