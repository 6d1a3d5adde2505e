/**
 * `pantograph new class|defined_type|task|fact|function|provider|transport|test <name>`: a new object in the
 * module (the working directory's, or the one it is in) and its tests, as PDK's `pdk new` makes them (same names, same paths, the same bytes as
 * pdk-templates' object templates). Names are checked in object-names.ts, the files of each kind are
 * listed in object-targets.ts; here the texts are rendered and written. The text of each file comes from
 * `object_templates/<template>.epp` of the project's first trusted template source that has it, else from
 * the default repository. A PDK module not yet converted (a V1 `.sync.yml`) whose V1 template repository
 * is trusted (metadata.json's `template-url`, as PDK reads it) gets that repository's
 * `object_templates/<template>.erb`, rendered by Ruby as PDK renders it. Nothing is written when any
 * target exists already.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { compileEpp } from '../epp/index.js';
import { exists } from '../shared/path-exists.js';
import { EngineError } from './errors.js';
import type { DataMap } from './model.js';
import { checkModuleName, checkName, findModule, type ObjectKind } from './object-names.js';
import { type ObjectOptions, planObject } from './object-targets.js';
import type { ProjectOptions } from './project.js';
import { loadSyncConfig, SYNC_FILE } from './project-config.js';
import { bundledTemplatesDir, resolveSources } from './sources/index.js';
import { loadV1 } from './v1/project.js';
import { RubyWorker, rubyLimits } from './v1/worker-client.js';

export { OBJECT_KINDS, type ObjectKind } from './object-names.js';
export type { ObjectOptions } from './object-targets.js';

export interface NewObject {
  /** The module's root (the nearest directory with a metadata.json). */
  readonly root: string;
  /** The full name (`<module>::<name>` for classes, defined types, functions and tasks). */
  readonly name: string;
  /** What was made, for messages: `class`, `defined type`, `unit test for class`... */
  readonly label: string;
  /** Project-relative paths written, the object first, its tests after. */
  readonly files: readonly string[];
}

export async function createObject(
  dir: string,
  kind: ObjectKind,
  given: string,
  options: ProjectOptions & ObjectOptions = {},
): Promise<NewObject> {
  const { root, module, metadata } = findModule(dir);
  checkName(kind, given); // PDK checks the object's name first, then reads the module's
  checkModuleName(root, metadata, kind, given);
  const plan = planObject(root, module, kind, given, options);
  for (const { path } of plan.files) {
    if (exists(join(root, path))) {
      throw new EngineError(
        'OBJECT_EXISTS',
        `cannot create ${plan.label} '${plan.name}': ${path} already exists`,
        { hint: 'choose another name, or remove the file first; nothing was written' },
      );
    }
  }
  const dirs = plan.files.some((f) => f.template)
    ? await objectTemplateDirs(root, metadata as DataMap, options)
    : [];
  const ruby = new ErbObjects(options.env);
  const rendered: { path: string; text: string }[] = [];
  try {
    for (const f of plan.files) {
      const text = f.template ? await render(dirs, f.template, f.values ?? {}, ruby) : (f.text ?? '');
      rendered.push({ path: f.path, text: pdkWritten(text) });
    }
  } finally {
    ruby.close();
  }
  for (const { path, text } of rendered) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text, { flag: 'wx' }); // never over a file that appeared meanwhile
  }
  return { root, name: plan.name, label: plan.label, files: rendered.map((r) => r.path) };
}

/**
 * `object_templates/<template>` from the first folder that has it, given the values it declares (all of
 * them when it declares none), so a source's own template may take fewer than PDK passes.
 */
async function render(
  dirs: readonly TemplateDir[],
  template: string,
  values: Readonly<Record<string, string>>,
  ruby: ErbObjects,
): Promise<string> {
  for (const d of dirs) {
    if (!d.erb) continue;
    const erb = join(d.dir, template.replace(/\.epp$/, '.erb'));
    if (existsSync(erb)) return ruby.render(erb, values);
  }
  const file = dirs
    .filter((d) => !d.erb)
    .map((d) => join(d.dir, template))
    .find((f) => existsSync(f));
  if (!file) {
    throw new EngineError('OBJECT_TEMPLATE', `no template source has object_templates/${template}`, {
      hint: 'the default repository has it: check PANTOGRAPH_DEFAULT_SOURCE, or add the file to your source',
    });
  }
  const compiled = compileEpp(readFileSync(file, 'utf8'), { file });
  const declared = compiled.parameters;
  const given = declared
    ? Object.fromEntries(declared.filter((p) => p.name in values).map((p) => [p.name, values[p.name]]))
    : values;
  return compiled.render(given);
}

/** As PDK's `write_file` leaves a text: Unix line breaks, ending with one. */
function pdkWritten(text: string): string {
  const unix = text.replace(/\r\n?/g, '\n');
  return unix.endsWith('\n') ? unix : `${unix}\n`;
}

/**
 * The `object_templates/` folders to look in, in order: the project's trusted sources (an untrusted one's
 * templates would render here without the sandbox's limits), then the default repository's.
 */
async function objectTemplateDirs(
  root: string,
  metadata: DataMap,
  options: ProjectOptions,
): Promise<TemplateDir[]> {
  const dirs: TemplateDir[] = [];
  const v1 = await v1ObjectTemplates(root, metadata, options);
  if (v1 !== undefined) {
    if (v1 !== '') dirs.push({ dir: v1, erb: true });
  } else if (existsSync(join(root, SYNC_FILE))) {
    const config = loadSyncConfig(root);
    const sources = await resolveSources(config.sources, {
      root,
      ...(options.offline !== undefined ? { offline: options.offline } : {}),
      ...(options.trust !== undefined ? { trust: options.trust } : {}),
      ...(options.env !== undefined ? { env: options.env } : {}),
    });
    for (const s of sources) if (s.trusted) dirs.push({ dir: join(s.dir, 'object_templates'), erb: false });
  }
  dirs.push({ dir: join(bundledTemplatesDir(), 'object_templates'), erb: false });
  return dirs;
}

/** A folder of object templates: EPP ones, or a V1 repository's ERB ones (rendered by Ruby). */
interface TemplateDir {
  readonly dir: string;
  readonly erb: boolean;
}

/**
 * The `object_templates/` of a V1 project's V1 repository: when `.sync.yml` is V1 (or absent) and
 * metadata.json (or `--template-url`) names a V1 repository that is trusted. An untrusted git repository
 * is passed over before anything is fetched (its templates are Ruby code), as an untrusted V2 source's
 * object templates are; a project with no V1 repository named uses the EPP templates.
 */
async function v1ObjectTemplates(
  root: string,
  metadata: DataMap,
  options: ProjectOptions,
): Promise<string | undefined> {
  // undefined: a V2 project; '': a V1 project without a usable V1 repository; else the folder.
  let notV2: EngineError;
  try {
    loadSyncConfig(root);
    return undefined;
  } catch (e) {
    if (!(e instanceof EngineError) || (e.code !== 'SYNC_V1' && e.code !== 'SYNC_NOT_FOUND')) throw e;
    notV2 = e;
  }
  try {
    const { v1 } = await loadV1(root, options, metadata, notV2);
    const dir = join(v1.source.dir, 'object_templates');
    return existsSync(dir) ? dir : '';
  } catch (e) {
    if (
      e instanceof EngineError &&
      // V1_DEFAULT_TEMPLATE: `pdk-default` (what `pdk new module` writes) is PDK's packaged copy of
      // pdk-templates, whose object templates the default ones are.
      ['SYNC_V1', 'SYNC_MODULESYNC', 'SYNC_NOT_FOUND', 'V1_UNTRUSTED', 'V1_DEFAULT_TEMPLATE'].includes(e.code)
    ) {
      // A fork's object templates may differ from the default ones (pdk-templates' own do not since
      // 3.5.1): its maintainer is told which wrote the files, rather than finding out in a review.
      if (
        e.code === 'V1_UNTRUSTED' &&
        !PUPPETLABS_PDK_TEMPLATES.test(String(metadata['template-url'] ?? ''))
      ) {
        options.onNote?.(
          `${e.message}: its object templates did not run, and the default ones (pdk-templates 3.5.1's) wrote the files; if you trust it, run again with --trust to use its own`,
        );
      }
      return '';
    }
    throw e;
  }
}

/** puppetlabs/pdk-templates, whose object templates are the default ones' bytes. */
const PUPPETLABS_PDK_TEMPLATES =
  /^(?:https:\/\/|git@)github\.com[/:]puppetlabs\/pdk-templates(?:\.git)?(?:#|$)/;

/** The Ruby worker for `.erb` object templates, started on the first one. */
class ErbObjects {
  private worker: RubyWorker | undefined;

  constructor(private readonly env: NodeJS.ProcessEnv | undefined) {}

  async render(file: string, values: Readonly<Record<string, string>>): Promise<string> {
    const env = this.env ?? process.env;
    this.worker ??= new RubyWorker({ env, limits: rubyLimits(env), repository: dirname(dirname(file)) });
    const reply = await this.worker.object(file, values);
    if (!reply.ok) {
      const error = reply.error as {
        class: string;
        message: string;
        file: string | null;
        line: number | null;
      };
      throw new EngineError('OBJECT_TEMPLATE', `${error.class}: ${error.message}`, {
        position: { file: error.file ?? file, line: error.line ?? 1, column: 1 },
        hint: "the V1 repository's object template failed with the values PDK gives it; nothing was written",
      });
    }
    return Buffer.from(String(reply.content), 'base64').toString('utf8');
  }

  close(): void {
    this.worker?.close();
  }
}
