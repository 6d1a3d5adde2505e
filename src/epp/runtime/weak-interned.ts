/**
 * One object per key while it lives, weakly held: a value no one refers to any more can go, and its key
 * with it. Floats, Binaries and SemVers are interned so, which makes two equal values `===` (Map keys,
 * `unique` and `==` find them as Ruby's `eql?` does) without keeping every value ever made.
 */
export class WeakInterned<K, V extends object> {
  private readonly live = new Map<K, WeakRef<V>>();
  private readonly forget = new FinalizationRegistry<K>((key) => {
    // The key may have been given a new object since the one collected was registered.
    if (this.live.get(key)?.deref() === undefined) this.live.delete(key);
  });

  /** The live object of `key`, if any. */
  get(key: K): V | undefined {
    return this.live.get(key)?.deref();
  }

  /** Makes `created` the object of `key` (after {@link get} found none), and returns it. */
  keep(key: K, created: V): V {
    this.live.set(key, new WeakRef(created));
    this.forget.register(created, key);
    return created;
  }
}
