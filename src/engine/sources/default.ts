/**
 * The `default` source: the template repository shipped inside the package (`templates/`), or the
 * directory named by `PANTOGRAPH_DEFAULT_SOURCE`.
 */
import { existsSync, realpathSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { packagePath } from '../../package-root.js';
import { EngineError } from '../errors.js';
import type { ResolvedSource, SourceSpec } from '../model.js';

/** The bundled templates directory (it may not exist in a development checkout). */
export function bundledTemplatesDir(): string {
  return packagePath('templates');
}

export function resolveDefaultSource(
  spec: SourceSpec,
  index: number,
  env: NodeJS.ProcessEnv,
): ResolvedSource {
  const override = env.PANTOGRAPH_DEFAULT_SOURCE;
  if (override) {
    const dir = resolve(override);
    if (!existsSync(dir) || !statSync(dir).isDirectory()) {
      throw new EngineError(
        'SOURCE_NOT_FOUND',
        `default source: PANTOGRAPH_DEFAULT_SOURCE=${override} is not a directory`,
        {
          position: spec.position,
          hint: 'unset PANTOGRAPH_DEFAULT_SOURCE or point it at a template repository',
        },
      );
    }
    return { spec, index, dir: realpathSync(dir), trusted: true };
  }
  const dir = bundledTemplatesDir();
  // A package without bundled templates simply offers none.
  return { spec, index, dir: existsSync(dir) ? realpathSync(dir) : dir, trusted: true };
}
