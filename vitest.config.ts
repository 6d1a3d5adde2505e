import { defineConfig } from 'vitest/config';

/** Tests of the library alone, in-process: the `epp` project runs them in a process shared by its files. */
const EPP_UNIT_TESTS = ['test/epp/**/*.test.ts', 'test/shared/**/*.test.ts'];
const SHARED_PROCESS = { isolate: false, setupFiles: ['test/helpers/fresh-epp-state.ts'] };

export default defineConfig({
  test: {
    testTimeout: 60_000,
    // Both cores: vitest's default is one worker fewer than the cores, one file at a time here, while most
    // tests wait on the CLI processes they start (session 26: on a machine whose `node -e 0` takes 105 ms,
    // the suite alone outgrew CI's 900 s that way).
    maxWorkers: 2,
    // A `beforeAll` that builds what its tests share (repositories, a fleet run) does a test's work: the
    // same limit, not the default 10 s that a loaded machine overran.
    hookTimeout: 60_000,
    // expect.poll waits for what a page or server shows after its own work (a render in a Web Worker, an
    // apply): 1 s by default, which a loaded CI machine missed. It waits only as long as it takes.
    expect: { poll: { timeout: 15_000 } },
    globalSetup: ['test/helpers/global-setup.ts'],
    coverage: {
      provider: 'v8',
      include: ['src/**/*.ts'],
      reporter: ['text-summary', 'html'],
    },
    projects: [
      {
        extends: true,
        test: { name: 'pantograph', include: ['test/**/*.test.ts'], exclude: [...EPP_UNIT_TESTS] },
      },
      {
        // The EPP and shared tests call the library in their own process (no environment stubs, no mocks): one
        // process per worker for all their files, not one per file, saves each file's import of the EPP
        // runtime (~0.7 s of CPU). test/helpers/fresh-epp-state.ts starts each file with no compiled
        // template, so the render tiers count from zero as they would in a process of its own.
        extends: true,
        test: { name: 'epp', include: [...EPP_UNIT_TESTS], ...SHARED_PROCESS },
      },
      {
        // Templates render in two tiers (src/epp/interpreter/): the first two renders are interpreted,
        // later ones run compiled code. Most tests render a template once, so the EPP tests run again with the
        // compiled tier only. (The fuzz test compares the two tiers itself.)
        extends: true,
        test: {
          name: 'epp-compiled',
          include: ['test/epp/**/*.test.ts'],
          exclude: ['test/epp/fuzz.test.ts'],
          env: { PANTOGRAPH_EPP_TIER: 'compiled' },
          ...SHARED_PROCESS,
        },
      },
    ],
  },
});
