/** A template's `hooks/` (see repository.ts): `<hook>.pp` or `<hook>.mjs`, one file per known hook. */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { didYouMeanHint } from '../shared/did-you-mean.js';
import { exists } from '../shared/path-exists.js';
import { problem } from './errors.js';
import { HOOK_NAMES, type HookFile, type HookName } from './model.js';
import type { Problem } from './render-plan.js';
import { at, type TreeWalker } from './template-walk.js';

export function readHooks(
  dir: string,
  walker: TreeWalker,
  problems: Problem[],
): Partial<Record<HookName, HookFile>> {
  const hooks: Partial<Record<HookName, HookFile>> = {};
  const hooksDir = join(dir, 'hooks');
  if (!exists(hooksDir)) return hooks;
  for (const name of readdirSync(hooksDir).sort()) {
    const path = join(hooksDir, name);
    const real = walker.follow(path);
    if (real === undefined || !statSync(real).isFile()) continue; // subdirectories: helpers of .mjs hooks
    const match = /^(.*)\.(pp|mjs)$/.exec(name);
    const hook = match?.[1] as HookName | undefined;
    if (!match || hook === undefined || !(HOOK_NAMES as readonly string[]).includes(hook)) {
      const stem = match?.[1] ?? name.replace(/\.[^.]*$/, '');
      problems.push(
        problem(
          'error',
          'TEMPLATE_UNKNOWN_HOOK',
          `hooks/${name} is not a hook: expected <hook>.pp or <hook>.mjs, hooks being ${HOOK_NAMES.join(', ')}`,
          at(path),
          didYouMeanHint(stem, HOOK_NAMES),
        ),
      );
      continue;
    }
    const existing = hooks[hook];
    if (existing) {
      problems.push(
        problem(
          'error',
          'TEMPLATE_DUPLICATE_HOOK',
          `hook ${hook} is defined twice (.pp and .mjs)`,
          at(path),
          'keep one of them',
        ),
      );
      continue;
    }
    hooks[hook] = { path, kind: match[2] as 'pp' | 'mjs' };
  }
  return hooks;
}
