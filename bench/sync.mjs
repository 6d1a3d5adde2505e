/**
 * Speed of `src/sync` against the file-system floor, measured in the same run on the same machine.
 *
 *   npm run build && node bench/sync.mjs [files] [--json]     (default 10,000 files of 1-4 KB)
 *
 * Floor: writeFileSync of every file; then statSync + readFileSync + sha256 of every file.
 * Measured: `status` of an unchanged project (vs the read floor) and `apply` of all files new (vs the write
 * floor, and vs write + read, since apply verifies what it wrote). Each figure is the median of 3 runs, in
 * wall time and in CPU time (user + system: steadier when other work shares the machine).
 * `PANTOGRAPH_SYNC_MODULE` may point at another build of `sync/index.js`.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const DIRS = 100;

function contents(n) {
  const out = [];
  for (let i = 0; i < n; i++) {
    const size = 1024 + ((i * 2654435761) % 3072);
    out.push(Buffer.from(`file ${i}\n${'abcdefghij'.repeat(Math.ceil(size / 10)).slice(0, size)}\n`));
  }
  return out;
}

const pathOf = (i) => `d${i % DIRS}/f${i}.txt`;

function planFor(root, bodies) {
  return {
    projectRoot: root,
    isNew: false,
    engineVersion: 'bench',
    sources: [{ type: 'default', location: 'templates' }],
    templates: [{ name: 'bench', version: '1.0.0', source: 0, settings: {} }],
    files: bodies.map((content, i) => ({
      path: pathOf(i),
      content,
      mode: 0o644,
      template: 'bench',
      source: 'files/f.epp',
      kind: 'file',
      empty: false,
    })),
    unmanaged: [],
    delete: [],
    purge: false,
    post: [],
    problems: [],
  };
}

/** `PANTOGRAPH_BENCH_DIR` picks the file system (e.g. /dev/shm to leave the disk out). */
function freshDir() {
  return mkdtempSync(join(process.env.PANTOGRAPH_BENCH_DIR ?? tmpdir(), 'pantograph-bench-'));
}

/** Wall and CPU (user + system) milliseconds of a call: CPU time is steadier on a shared machine. */
async function time(fn) {
  const start = performance.now();
  const cpu = process.cpuUsage();
  await fn();
  const used = process.cpuUsage(cpu);
  return { wall: performance.now() - start, cpu: (used.user + used.system) / 1000 };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function benchSync(
  n = 10_000,
  modulePath = resolve(import.meta.dirname, '../dist/sync/index.js'),
) {
  const sync = await import(pathToFileURL(modulePath).href);
  const bodies = contents(n);
  const floorRun = async () => {
    const floor = freshDir();
    for (let d = 0; d < DIRS; d++) mkdirSync(join(floor, `d${d}`));
    const write = await time(() => {
      for (let i = 0; i < n; i++) writeFileSync(join(floor, pathOf(i)), bodies[i]);
    });
    const read = await time(() => {
      for (let i = 0; i < n; i++) {
        const p = join(floor, pathOf(i));
        statSync(p);
        createHash('sha256').update(readFileSync(p)).digest('hex');
      }
    });
    rmSync(floor, { recursive: true, force: true });
    return { write, read };
  };
  const syncRun = async () => {
    const project = freshDir();
    const applied = await time(() => sync.apply(planFor(project, bodies)));
    // A fresh plan (fresh buffers), as a new process would have.
    const plan = planFor(
      project,
      bodies.map((b) => Buffer.from(b)),
    );
    const checked = await time(() => {
      if (sync.status(plan).drift) throw new Error('bench project drifted');
    });
    rmSync(project, { recursive: true, force: true });
    return { apply: applied, status: checked };
  };
  const runs = [];
  for (let run = 0; run < 3; run++) {
    // Alternate which goes first: file creation gets slower or faster with what the disk did just before.
    if (run % 2 === 0) runs.push({ ...(await floorRun()), ...(await syncRun()) });
    else runs.push({ ...(await syncRun()), ...(await floorRun()) });
  }
  const med = (f) => median(runs.map(f));
  const figures = (kind) => ({
    floorWriteMs: Math.round(med((r) => r.write[kind])),
    floorReadMs: Math.round(med((r) => r.read[kind])),
    statusMs: Math.round(med((r) => r.status[kind])),
    applyMs: Math.round(med((r) => r.apply[kind])),
    // ratios per run (floor and measure taken back to back), then the median
    statusVsReadFloor: +med((r) => r.status[kind] / r.read[kind]).toFixed(2),
    applyVsWriteFloor: +med((r) => r.apply[kind] / r.write[kind]).toFixed(2),
    applyVsWriteReadFloor: +med((r) => r.apply[kind] / (r.write[kind] + r.read[kind])).toFixed(2),
  });
  return { files: n, wall: figures('wall'), cpu: figures('cpu') };
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const args = process.argv.slice(2);
  const n = Number(args.find((a) => /^\d+$/.test(a)) ?? 10_000);
  const result = await benchSync(n, process.env.PANTOGRAPH_SYNC_MODULE ?? undefined);
  const mark = (ratio) => (ratio <= 2 ? 'within 2x' : 'OVER 2x');
  console.log(`sync bench, ${result.files} files of 1-4 KB (median of 3 runs; ratios per run)`);
  for (const kind of ['wall', 'cpu']) {
    const r = result[kind];
    console.log(`  ${kind} time`);
    console.log(`    floor: writeFileSync          ${r.floorWriteMs} ms`);
    console.log(`    floor: stat + read + sha256   ${r.floorReadMs} ms`);
    console.log(
      `    status, unchanged project     ${r.statusMs} ms  (${r.statusVsReadFloor}x read floor: ${mark(r.statusVsReadFloor)})`,
    );
    console.log(
      `    apply, all files new          ${r.applyMs} ms  (${r.applyVsWriteFloor}x write floor, ${r.applyVsWriteReadFloor}x write + read: ${mark(r.applyVsWriteReadFloor)})`,
    );
  }
  if (args.includes('--json')) console.log(JSON.stringify(result, null, 2));
}
