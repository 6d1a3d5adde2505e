/**
 * Pull requests (GitHub) and merge requests (GitLab) through the forge's HTTP API: one per changed
 * repository, updated in place on a later run instead of a second being opened. The token comes from the
 * environment at the moment of the request; it is never printed, logged or written, and it is masked out
 * of any answer a forge sends back before that answer is shown.
 */
import { EngineError } from '../engine/errors.js';
import type { FleetForge } from './fleet-file.js';

export interface PullRequestSpec {
  /** `owner/name` (GitHub) or the project path (GitLab). */
  readonly project: string;
  readonly head: string;
  readonly base: string;
  readonly title: string;
  readonly body: string;
  readonly labels: readonly string[];
}

export interface PullRequestResult {
  readonly number: number;
  readonly url: string;
  readonly action: 'created' | 'updated';
}

export interface ForgeClientOptions {
  readonly forge: FleetForge;
  readonly env?: NodeJS.ProcessEnv;
  /** Time limit of one request (default 30 s). */
  readonly timeoutMs?: number;
}

const MAX_ANSWER = 4 * 1024 * 1024;

export async function ensurePullRequest(
  spec: PullRequestSpec,
  options: ForgeClientOptions,
): Promise<PullRequestResult> {
  const { forge } = options;
  const token = (options.env ?? process.env)[forge.tokenEnv];
  if (token === undefined || token === '') {
    throw new EngineError(
      'FLEET_FORGE',
      `--pr needs a ${forge.type} token in the environment variable ${forge.tokenEnv}`,
      {
        hint: `export ${forge.tokenEnv}=... (a token that may open pull requests), or set forge.token_env in the fleet file`,
      },
    );
  }
  const call = caller(forge, token, options.timeoutMs ?? 30_000);
  return forge.type === 'github' ? github(call, spec) : gitlab(call, spec);
}

type Call = (method: string, path: string, body?: unknown) => Promise<unknown>;

async function github(call: Call, spec: PullRequestSpec): Promise<PullRequestResult> {
  const repo = `/repos/${spec.project.split('/').map(encodeURIComponent).join('/')}`;
  const owner = spec.project.split('/')[0] ?? '';
  const query = `state=open&head=${encodeURIComponent(`${owner}:${spec.head}`)}&base=${encodeURIComponent(spec.base)}`;
  const open = (await call('GET', `${repo}/pulls?${query}`)) as { number: number; html_url: string }[];
  let pr: { number: number; html_url: string };
  let action: PullRequestResult['action'];
  if (Array.isArray(open) && open.length > 0) {
    pr = open[0]!;
    await call('PATCH', `${repo}/pulls/${pr.number}`, { title: spec.title, body: spec.body });
    action = 'updated';
  } else {
    pr = (await call('POST', `${repo}/pulls`, {
      title: spec.title,
      head: spec.head,
      base: spec.base,
      body: spec.body,
    })) as { number: number; html_url: string };
    action = 'created';
  }
  if (spec.labels.length > 0)
    await call('POST', `${repo}/issues/${pr.number}/labels`, { labels: spec.labels });
  return { number: pr.number, url: pr.html_url, action };
}

async function gitlab(call: Call, spec: PullRequestSpec): Promise<PullRequestResult> {
  const project = `/projects/${encodeURIComponent(spec.project)}`;
  const query = `state=opened&source_branch=${encodeURIComponent(spec.head)}&target_branch=${encodeURIComponent(spec.base)}`;
  const open = (await call('GET', `${project}/merge_requests?${query}`)) as {
    iid: number;
    web_url: string;
  }[];
  const fields = { title: spec.title, description: spec.body, labels: spec.labels.join(',') };
  if (Array.isArray(open) && open.length > 0) {
    const mr = open[0]!;
    await call('PUT', `${project}/merge_requests/${mr.iid}`, fields);
    return { number: mr.iid, url: mr.web_url, action: 'updated' };
  }
  const mr = (await call('POST', `${project}/merge_requests`, {
    ...fields,
    source_branch: spec.head,
    target_branch: spec.base,
  })) as { iid: number; web_url: string };
  return { number: mr.iid, url: mr.web_url, action: 'created' };
}

function caller(forge: FleetForge, token: string, timeoutMs: number): Call {
  const { api, type } = forge;
  const auth: Record<string, string> =
    type === 'github'
      ? { authorization: `Bearer ${token}`, accept: 'application/vnd.github+json' }
      : { 'private-token': token };
  return async (method, path, body) => {
    let response: Response;
    try {
      response = await fetch(`${api}${path}`, {
        method,
        headers: { ...auth, 'content-type': 'application/json', 'user-agent': 'pantograph-fleet' },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        signal: AbortSignal.timeout(timeoutMs),
        redirect: 'error',
      });
    } catch (e) {
      const reason =
        (e as Error).name === 'TimeoutError' ? `no answer in ${timeoutMs / 1000} s` : (e as Error).message;
      throw new EngineError('FLEET_FORGE', `${method} ${api}${path}: ${mask(reason, token)}`, {
        hint: 'check forge.api in the fleet file and the network',
      });
    }
    const text = await readLimited(response);
    if (!response.ok) {
      const detail = mask(messageOf(text), token);
      throw new EngineError(
        'FLEET_FORGE',
        `${method} ${api}${path}: HTTP ${response.status}${detail ? ` (${detail})` : ''}`,
        {
          hint:
            response.status === 401 || response.status === 403
              ? `the token in ${forge.tokenEnv} was refused: check that it may open pull requests on this repository`
              : response.status === 404
                ? 'check forge_project (or the URL it is taken from) and that the token can see the repository'
                : undefined,
        },
      );
    }
    try {
      return text === '' ? null : (JSON.parse(text) as unknown);
    } catch {
      throw new EngineError('FLEET_FORGE', `${method} ${api}${path}: the answer is not JSON`);
    }
  };
}

async function readLimited(response: Response): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > MAX_ANSWER) {
      await reader.cancel();
      throw new EngineError(
        'FLEET_FORGE',
        `the forge's answer is larger than ${MAX_ANSWER / 1024 / 1024} MiB`,
      );
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function messageOf(text: string): string {
  try {
    const data = JSON.parse(text) as { message?: unknown; error?: unknown };
    const message = data.message ?? data.error;
    return typeof message === 'string' ? message.slice(0, 300) : JSON.stringify(message ?? '').slice(0, 300);
  } catch {
    return text.slice(0, 300);
  }
}

function mask(text: string, token: string): string {
  return token.length >= 4 ? text.split(token).join('***') : text;
}

/** `owner/name` from a remote URL (`https://host/owner/name.git`, `git@host:owner/name.git`). */
export function forgeProjectOf(url: string): string | undefined {
  const path = /^[a-z][a-z0-9+.-]*:\/\/[^/]+\/(.+)$/i.exec(url)?.[1] ?? /^[^/]*:(.+)$/.exec(url)?.[1];
  if (!path) return undefined;
  const clean = path.replace(/\.git$/, '').replace(/\/+$/, '');
  return clean.includes('/') ? clean : undefined;
}
