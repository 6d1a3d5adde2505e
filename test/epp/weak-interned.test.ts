/**
 * Interned values (Floats, Binaries, SemVers: src/epp/runtime/weak-interned.ts) are one object per value
 * while in use, and are not kept once nothing refers to them: a long-running process (the language
 * server, `pantograph ui`) that renders many values must not hold every one it ever made.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { WeakInterned } from '../../src/epp/runtime/weak-interned.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Lets the FinalizationRegistry's callbacks run (they run in a later task, after a collection). */
const finalizers = async () => {
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

describe('WeakInterned', () => {
  it('gives the object kept for a key while it lives', () => {
    const interned = new WeakInterned<string, { n: number }>();
    const one = interned.keep('1.5', { n: 1.5 });
    expect(interned.get('1.5')).toBe(one);
    expect(interned.get('2.5')).toBeUndefined();
  });

  it('lets an object nothing refers to go, with its key', async () => {
    const interned = new WeakInterned<string, { n: number }>();
    (() => {
      for (let i = 0; i < 1000; i++) interned.keep(`k${i}`, { n: i });
    })();
    await finalizers();
    expect(interned.get('k0')).toBeUndefined();
    expect((interned as unknown as { live: Map<string, unknown> }).live.size).toBe(0);
  });

  it("a key kept again before the old object's finalizer runs keeps its new object", async () => {
    const interned = new WeakInterned<string, { n: number }>();
    (() => {
      interned.keep('x', { n: 1 });
    })();
    gc(); // the first object is gone; its finalizer has not run yet (it runs in a later task)
    const second = interned.keep('x', { n: 2 });
    await finalizers();
    expect(interned.get('x')).toBe(second);
  });
});
