/**
 * The page's calls to the API of `pantograph ui` (src/ui/api.ts): each a POST of JSON with the token, the
 * answer's JSON back, and an `ApiError` for an answer other than success or a list of problems.
 */
import type { Problem } from './types.js';

/**
 * The token `pantograph ui` printed in its URL: taken from the address once, kept in this tab's
 * sessionStorage (per origin: another server on 127.0.0.1 cannot read it, as it could a cookie), and removed
 * from the address bar so that it is not bookmarked or shown. Sent in a header with every API call.
 */
const TOKEN_KEY = 'pantograph-token';
function takeToken(): string {
  const url = new URL(location.href);
  const given = url.searchParams.get('token');
  if (given) {
    sessionStorage.setItem(TOKEN_KEY, given);
    url.searchParams.delete('token');
    history.replaceState(history.state, '', `${url.pathname}${url.search}${url.hash}`);
  }
  return sessionStorage.getItem(TOKEN_KEY) ?? '';
}
export const token = takeToken();

/** An answer of the API other than success or a list of problems: what it says, and what to do. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code: string | undefined,
    readonly hint: string | undefined,
    readonly changed: string[] = [],
  ) {
    super(message);
  }
}

export async function call<T>(path: string, body: object): Promise<T> {
  const response = await fetch(`/api/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-pantograph-token': token },
    body: JSON.stringify(body),
  });
  const data = (await response.json()) as T & {
    error?: string;
    code?: string;
    hint?: string;
    problems?: Problem[];
    changed?: string[];
  };
  if (!response.ok && !data.problems) {
    throw new ApiError(response.status, data.error ?? `HTTP ${response.status}`, data.code, data.hint, data.changed ?? []);
  }
  return data;
}
