/**
 * Run before each test file of the EPP projects, which share one process per worker (vitest.config.ts,
 * `isolate: false`): each file starts with no compiled template, so a template's first two renders in
 * a file are interpreted, as they would be in a process of its own, whatever another file rendered.
 */
import { beforeAll } from 'vitest';

// Imported when the hook runs, after the file's own imports loaded the runtime: a static import here is
// evaluated again for every file (~0.25 s of CPU each).
beforeAll(async () => (await import('../../src/epp/epp.js')).clearCompileCache());
