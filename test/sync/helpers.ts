/** Test helpers: temporary projects and hand-built RenderPlans. */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach } from 'vitest';
import type { PlannedFile, RenderPlan } from '../../src/engine/render-plan.js';

const made: string[] = [];

afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fresh, empty project directory, removed after the test. */
export function tmpProject(): string {
  const dir = mkdtempSync(join(tmpdir(), 'pantograph-sync-'));
  made.push(dir);
  return dir;
}

export function file(
  path: string,
  content: string,
  extra: Partial<Omit<PlannedFile, 'path' | 'content'>> = {},
): PlannedFile {
  return {
    path,
    content: Buffer.from(content),
    mode: 0o644,
    template: 'base',
    source: `files/${path}.epp`,
    kind: 'file',
    empty: content.trim() === '',
    ...extra,
  };
}

export function planOf(
  root: string,
  files: readonly PlannedFile[],
  extra: Partial<RenderPlan> = {},
): RenderPlan {
  return {
    projectRoot: root,
    isNew: false,
    engineVersion: '0.1.0',
    sources: [{ type: 'default', location: 'templates' }],
    templates: [{ name: 'base', version: '1.0.0', source: 0, settings: { b: 1, a: [1, 2] } }],
    files,
    unmanaged: [],
    delete: [],
    purge: false,
    post: [],
    problems: [],
    ...extra,
  };
}

export function put(root: string, path: string, content: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), content);
}

export function get(root: string, path: string): string {
  return readFileSync(join(root, path), 'utf8');
}

export function modeOf(root: string, path: string): number {
  return statSync(join(root, path)).mode & 0o777;
}
