/**
 * A repository's failures as its record reports them: a plan's errors (the first, with how many more), a
 * failing post command (at its line in `.sync.yml`, with its output's end), and any error as the report
 * keeps it (credentials masked: reports are kept as artifacts).
 */
import { EngineError } from '../engine/errors.js';
import type { Problem } from '../engine/render-plan.js';
import { jsonPointer, parseYamlData } from '../engine/yaml-data.js';
import { maskCredentials } from '../shared/url-credentials.js';
import type { PostResult } from '../sync/post.js';
import type { RepositoryRecord } from './record.js';

export function planError(problems: readonly Problem[]): EngineError {
  const errors = problems.filter((p) => p.severity === 'error');
  const first = errors[0]!;
  const more =
    errors.length > 1
      ? ` (and ${errors.length - 1} more: \`pantograph validate\` in the repository lists them)`
      : '';
  return new EngineError(first.code as 'SYNC_INVALID', `${first.message}${more}`, {
    position:
      first.file !== undefined
        ? { file: first.file, line: first.line ?? 1, column: first.column ?? 1 }
        : undefined,
    hint: first.hint,
    problems: errors,
  });
}

/** At most this much of a failing post command's output is kept in the report (its end). */
const MAX_POST_OUTPUT = 4000;

/**
 * A failing post command as the one-project `apply` reports it: the command, the file, the exit status
 * and the output, at the command's place in the repository's `.sync.yml` (the clone's copy, which is
 * the repository's own: the fleet sets no `post`).
 */
export function postError(
  failed: readonly PostResult[],
  original: string,
  syncFile: string,
  clone: boolean,
): EngineError & { output?: string } {
  const first = failed[0]!;
  const status = first.status === null ? 'did not run' : `exit ${first.status}`;
  const more = failed.length > 1 ? ` (and ${failed.length - 1} more)` : '';
  const error: EngineError & { output?: string } = new EngineError(
    'FLEET_APPLY',
    `post command \`${first.command}\` failed on ${first.path} (${status})${more}`,
    {
      position: postPosition(original, syncFile, first.command),
      hint: `fix the command (\`post\` in the repository's .sync.yml${clone ? ', as the fleet clone shows it' : ''}) and run the fleet again: nothing was ${clone ? 'committed' : 'kept'} for this repository`,
    },
  );
  // The first one's output; each other's under a line naming it.
  const output = failed
    .map((p, i) =>
      i === 0
        ? p.output.trim()
        : `-- \`${p.command}\` on ${p.path} (${p.status === null ? 'did not run' : `exit ${p.status}`}):\n${p.output.trim()}`,
    )
    .filter((o) => o !== '')
    .join('\n');
  if (output !== '') {
    error.output = output.length > MAX_POST_OUTPUT ? `...${output.slice(-MAX_POST_OUTPUT)}` : output;
  }
  return error;
}

/** Where `.sync.yml` lists a post command (the first entry with that command line). */
function postPosition(text: string, file: string, command: string) {
  try {
    const parsed = parseYamlData(text, file, { version: '1.1', errorCode: 'SYNC_YAML', replaceTag: true });
    const post = (parsed.data as { pdk_template?: { post?: unknown } } | undefined)?.pdk_template?.post;
    if (!Array.isArray(post)) return undefined;
    for (const [i, item] of post.entries()) {
      if (typeof item !== 'object' || item === null) continue;
      for (const [glob, value] of Object.entries(item as Record<string, unknown>)) {
        if (value === command) {
          return parsed.positions.positionOf(jsonPointer(['pdk_template', 'post', i, glob]));
        }
      }
    }
  } catch {
    // no position then
  }
  return undefined;
}

/** A failure as the report records it; a URL's password in it is masked (reports are kept as artifacts). */
export function errorOf(e: unknown): NonNullable<RepositoryRecord['error']> {
  if (
    e instanceof EngineError ||
    (e instanceof Error && typeof (e as { code?: unknown }).code === 'string')
  ) {
    const err = e as Error & {
      code: string;
      position?: { file: string; line: number; column: number };
      hint?: string;
      output?: unknown;
    };
    return {
      code: err.code,
      message: maskCredentials(err.message),
      ...(err.position
        ? { file: err.position.file, line: err.position.line, column: err.position.column }
        : {}),
      ...(err.hint ? { hint: maskCredentials(err.hint) } : {}),
      ...(typeof err.output === 'string' ? { output: maskCredentials(err.output) } : {}),
    };
  }
  return { code: 'INTERNAL', message: maskCredentials(e instanceof Error ? e.message : String(e)) };
}
