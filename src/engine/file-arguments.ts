/** What one template file receives from the settings (see render-files.ts). */
import type { TemplateParameter } from '../epp/index.js';
import type { PHash } from '../epp/runtime/values.js';
import { didYouMeanHint } from '../shared/did-you-mean.js';
import { lineColumn } from '../shared/position.js';
import { problem } from './errors.js';
import type { TemplateFile } from './model.js';
import type { RenderContext } from './render-files.js';
import type { Problem } from './render-plan.js';

/** The arguments of one file, or the problems that keep it from rendering. */
export interface FileArguments {
  readonly values: PHash;
  readonly problems: readonly Problem[];
}

/**
 * What a file receives: every setting when it declares no parameters, else the declared names that have a
 * (non-undef) setting. A declared name matching no setting is a warning; a required one without value an
 * error naming template, file and parameter.
 */
export function fileArguments(
  ctx: RenderContext,
  file: TemplateFile,
  source: string,
  parameters: readonly TemplateParameter[] | undefined,
): FileArguments {
  const { template: t, settings } = ctx;
  const problems: Problem[] = [];
  if (!parameters) return { values: new Map(ctx.settingsValue), problems };
  const values: PHash = new Map();
  for (const p of parameters) {
    const has = Object.hasOwn(settings, p.name);
    if (has && settings[p.name] !== null) {
      values.set(p.name, ctx.settingsValue.get(p.name));
      continue;
    }
    const { line, column } = lineColumn(source, p.span.start);
    const position = { file: file.absPath, line, column };
    if (!has) {
      problems.push(
        problem(
          'warning',
          'RENDER_UNKNOWN_PARAMETER',
          `parameter '${p.name}' of ${t.name}/${file.source} matches no setting of template '${t.name}'`,
          position,
          didYouMeanHint(p.name, Object.keys(settings)),
        ),
      );
    }
    if (!p.hasDefault) {
      problems.push(
        problem(
          'error',
          'RENDER_MISSING_PARAMETER',
          `template '${t.name}', file ${file.source}: required parameter '${p.name}' has no value`,
          position,
          `set '${p.name}' in the '${t.name}' section of .sync.yml, or give the parameter a default`,
        ),
      );
    }
  }
  return { values, problems };
}
