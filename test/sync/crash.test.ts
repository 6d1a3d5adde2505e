import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RenderPlan } from '../../src/engine/render-plan.js';
import { apply, status } from '../../src/sync/index.js';
import { buildSync, runNode } from './child.js';
import { tmpProject } from './helpers.js';

const FILES = 2000;
const KILLS = 15;

/** The same generator runs in the child: file i of version v, 1-4 KB. */
const GENERATOR = `
export function content(i, v) {
  const head = 'file ' + i + ' version ' + v + '\\n';
  return head + 'x'.repeat(1024 + ((i * 977) % 3072)) + '\\n';
}
export function plan(root, v) {
  const files = [];
  for (let i = 0; i < ${FILES}; i++) {
    files.push({ path: 'd' + (i % 20) + '/f' + i + '.txt', content: Buffer.from(content(i, v)), mode: 0o644,
      template: 't', source: 'files/f', kind: 'file', empty: false });
  }
  return { projectRoot: root, isNew: false, engineVersion: '0', sources: [], templates: [], files,
    unmanaged: [], delete: [], purge: false, post: [], problems: [] };
}
`;

describe('crash safety', () => {
  let build: ReturnType<typeof buildSync>;
  let script: string;
  let gen: { content: (i: number, v: string) => string; plan: (root: string, v: string) => RenderPlan };
  beforeAll(async () => {
    build = buildSync();
    writeFileSync(join(build.dir, 'gen.mjs'), GENERATOR);
    script = join(build.dir, 'apply.mjs');
    writeFileSync(
      script,
      `import { apply } from './sync/index.js';
import { plan } from './gen.mjs';
const p = plan(process.argv[2], process.argv[3]);
const start = performance.now();
process.stdout.write('go\\n');
await apply(p);
process.stdout.write('done ' + Math.round(performance.now() - start) + '\\n');
`,
    );
    gen = await import(join(build.dir, 'gen.mjs'));
  });
  afterAll(() => build.cleanup());

  it(`leaves every file old or new when killed at random points (${KILLS} kills), and a second apply completes`, async () => {
    const root = tmpProject();
    // How long an unkilled child takes, to spread the kills over its run.
    await apply(gen.plan(root, 'v0'));
    const timed = await runNode(script, [root, 'v1']);
    const duration = Number(/done (\d+)/.exec(timed.stdout)?.[1]);
    expect(duration).toBeGreaterThan(0);

    // Each round moves the project from the previous version to a new one, killed part way.
    let mixed = 0;
    let previous = 'v1';
    for (let round = 0; round < KILLS; round++) {
      const next = `r${round}`;
      const delay = Math.random() * duration;
      let armed = false;
      const run = await runNode(script, [root, next], {
        onStdout: (text, kill) => {
          if (!armed && text.startsWith('go')) {
            armed = true;
            setTimeout(kill, delay);
          }
        },
      });
      let old = 0;
      let fresh = 0;
      for (let i = 0; i < FILES; i++) {
        const text = readFileSync(join(root, `d${i % 20}`, `f${i}.txt`), 'utf8');
        if (text === gen.content(i, previous)) old++;
        else if (text === gen.content(i, next)) fresh++;
        else throw new Error(`round ${round}: f${i}.txt is neither old nor new (${text.length} bytes)`);
      }
      if (old > 0 && fresh > 0) mixed++;
      if (run.signal !== 'SIGKILL') expect(fresh).toBe(FILES); // finished before the kill

      const plan = gen.plan(root, next);
      const second = await apply(plan);
      expect(second.ok).toBe(true);
      expect(second.conflicts).toEqual([]);
      expect(status(plan).drift).toBe(false);
      for (let i = 0; i < FILES; i += 97) {
        expect(readFileSync(join(root, `d${i % 20}`, `f${i}.txt`), 'utf8')).toBe(gen.content(i, next));
      }
      const leftovers = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((n) =>
        n.includes('pantograph-tmp'),
      );
      expect(leftovers).toEqual([]);
      expect(existsSync(join(root, '.pantograph.lock.lck'))).toBe(false);
      previous = next;
    }
    // The kills must really have landed while files were being written.
    expect(mixed).toBeGreaterThan(0);
  }, 300_000);

  it('refuses a second run while another process applies, which then completes', async () => {
    const root = tmpProject();
    let refused: unknown;
    let attempted: Promise<unknown> | undefined;
    const run = await runNode(script, [root, 'c1'], {
      onStdout: (text) => {
        if (attempted || !text.startsWith('go')) return;
        attempted = new Promise((done) => setTimeout(done, 50)).then(() =>
          apply(gen.plan(root, 'c2')).catch((error: unknown) => {
            refused = error;
          }),
        );
      },
    });
    await attempted;
    expect(refused).toMatchObject({ code: 'SYNC_LOCKED' });
    expect(run.stdout).toMatch(/done \d+/);
    expect(status(gen.plan(root, 'c1')).drift).toBe(false);
  }, 60_000);
});
