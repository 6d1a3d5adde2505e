/**
 * What the editor can say of a V1 `.sync.yml` whose repository's Ruby may not run (the server without
 * `--trust`), beside `V1_UNTRUSTED`: the keys it gives twice (warnings: Ruby keeps the last), and the
 * `V1_SYNC_KEY` warnings a V1 run gives (keys PDK ignores), which need only the repository's file list and
 * config_defaults.yml. All of it is data: nothing of the repository runs. Before, a misspelt key showed
 * nothing until `--trust`. (A syntax error is found before the file is known to be V1: `SYNC_YAML`.)
 *
 * The YAML is read as Psych reads it (YAML 1.1); Ruby, when it runs, has the last word (a byte order mark
 * or a symbol its YAML refuses is found only then).
 */
import { join } from 'node:path';
import { locateV1Repository, type ProjectOptions, v1DuplicateKeyWarnings } from '../engine/project.js';
import { SYNC_FILE } from '../engine/project-config.js';
import type { Problem } from '../engine/render-plan.js';
import { ignoredSyncKeys } from '../engine/v1/sync-keys.js';
import { parseYamlData } from '../engine/yaml-data.js';
import { fileOfTemplate, repositoryFiles, TEMPLATE_DIRS } from './project-outline.js';

export async function untrustedV1Problems(
  root: string,
  options: ProjectOptions,
  text: string,
): Promise<Problem[]> {
  const file = join(root, SYNC_FILE);
  const parsed = parseYamlData(text, file, { version: '1.1', errorCode: 'SYNC_YAML' });
  // A file our reader refuses for any other error than a key given twice is reported as SYNC_YAML before
  // it is known to be V1 (project-config.ts): such errors are kept as they are, should one come here.
  const errors = parsed.problems.filter((p) => p.severity === 'error');
  const duplicates = errors.filter((p) => /keys must be unique/i.test(p.message));
  const located = await locateV1Repository(root, options);
  const problems = [
    ...errors.filter((p) => !duplicates.includes(p)),
    ...v1DuplicateKeyWarnings(duplicates, located?.kind ?? 'pdk'),
  ];
  // msync stops on a key PDK would ignore (a Ruby error, given once it runs): PDK's repositories only.
  if (located?.kind !== 'pdk') return problems;
  const files = repositoryFiles(located.dir, TEMPLATE_DIRS).map(fileOfTemplate);
  problems.push(...ignoredSyncKeys({ document: parsed.document, text, file, root }, files, located.dir));
  return problems;
}
