/**
 * A template's output files (`files/`, `files_init/`; see repository.ts): listed with their stat identity,
 * and checked for empty, reserved and conflicting output paths.
 */
import { shownName } from '../shared/quoted-name.js';
import { describeReserved, RESERVED_NAMES_HINT, reservedSegment } from '../shared/reserved-names.js';
import { problem } from './errors.js';
import type { TemplateFile } from './model.js';
import type { Problem } from './render-plan.js';
import { at, type TreeWalker } from './template-walk.js';

export function listOutputs(
  dir: string,
  sub: 'files' | 'files_init',
  kind: 'file' | 'init',
  walker: TreeWalker,
): TemplateFile[] {
  return walker.list(dir, sub).map((f) => {
    const inner = f.rel.slice(sub.length + 1);
    const isTemplate = inner.endsWith('.epp');
    const file: TemplateFile = {
      source: f.rel,
      absPath: f.abs,
      output: isTemplate ? inner.slice(0, -4) : inner,
      kind,
      executable: f.executable,
      isTemplate,
    };
    identitiesWhenListed.set(file, f.identity);
    return file;
  });
}

/** Each output file's stat identity as the walk found it: the render cache's digest lookup needs no second stat. */
const identitiesWhenListed = new WeakMap<TemplateFile, string>();

/** A template file's stat identity when its template was loaded (taken before any read of its bytes). */
export function identityWhenListed(file: TemplateFile): string | undefined {
  return identitiesWhenListed.get(file);
}

/**
 * No empty names, no reserved paths (in any spelling a file system reads as one: shared/reserved-names.ts),
 * no two files of the template on one output path.
 */
export function checkOutputs(name: string, files: readonly TemplateFile[], problems: Problem[]): void {
  const seen = new Map<string, TemplateFile>();
  for (const f of files) {
    const segments = f.output.split('/');
    const reserved = reservedSegment(f.output);
    if (segments.some((s) => s === '')) {
      problems.push(
        problem('error', 'TEMPLATE_RESERVED_PATH', `${f.source} produces no file name`, at(f.absPath)),
      );
    } else if (reserved !== undefined) {
      const how = reserved.because === undefined ? '' : `: ${describeReserved(reserved)}`;
      problems.push(
        problem(
          'error',
          'TEMPLATE_RESERVED_PATH',
          `template '${name}': ${shownName(f.source)} would write ${shownName(f.output)}, which Pantograph never writes${how}`,
          at(f.absPath),
          RESERVED_NAMES_HINT,
        ),
      );
    }
    const other = seen.get(f.output);
    if (other) {
      problems.push(
        problem(
          'error',
          'TEMPLATE_FILE_CONFLICT',
          `${other.source} and ${f.source} both produce ${f.output}`,
          at(f.absPath),
          'remove or rename one of them',
        ),
      );
    } else seen.set(f.output, f);
  }
}
