/**
 * The worker of the sandbox (sandbox.ts): renders the files of an untrusted template, or runs one of its
 * `.pp` hooks, with the same code the main thread uses for trusted ones, and posts the result back. Before
 * each file it says which one it is on, so that a limit hit names the file. The size caps of templates
 * are lowered to its heap first, so that a value growing too large meets them before the heap limit.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { limitSizesToHeap } from '../epp/runtime/size-limits.js';
import type { PHash } from '../epp/runtime/values.js';
import { runHook } from './hooks.js';
import type { LoadedTemplate } from './model.js';
import { type RenderContext, renderFileInto } from './render-files.js';
import type { PlannedFile, Problem } from './render-plan.js';
import type { HookJob, RenderJob, RenderJobResult, SandboxWorkerData } from './sandbox.js';
import { cloneData, dataToValue } from './settings.js';

limitSizesToHeap((workerData as SandboxWorkerData).memoryMb);

function render(job: RenderJob): RenderJobResult {
  const t = job.template;
  const template = {
    name: t.name,
    dir: t.dir,
    manifest: { delimiters: t.delimiters },
  } as unknown as LoadedTemplate;
  const settingsValue = dataToValue(job.settings) as PHash;
  const topScope: PHash = new Map([
    ['settings', settingsValue],
    ['metadata', dataToValue(job.metadata)],
    ['project', dataToValue(job.project)],
    ['template', dataToValue({ name: t.name, version: t.version, source: t.source })],
  ]);
  const ctx: RenderContext = {
    template,
    settings: cloneData(job.settings) as typeof job.settings,
    settingsValue,
    topScope,
    strict: job.strict,
  };
  const files: PlannedFile[] = [];
  const problems: Problem[] = [];
  for (const file of job.files) {
    parentPort!.postMessage({ progress: file.source });
    const planned = renderFileInto(ctx, file, problems);
    // A copy of the bytes: the renderer's slab is shared between files and would travel whole.
    if (planned) files.push({ ...planned, content: new Uint8Array(planned.content) });
  }
  return { files, problems };
}

parentPort!.on('message', async (job: RenderJob | HookJob) => {
  try {
    const result =
      job.kind === 'render' ? render(job) : await runHook(job.name, job.hook, job.state, job.options);
    parentPort!.postMessage({ result });
  } catch (e) {
    parentPort!.postMessage({ failure: e instanceof Error ? e.message : String(e) });
  }
});
