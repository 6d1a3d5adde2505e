/**
 * A Puppet hash whose keys are all strings, kept as a plain object instead of a Map's table: what a
 * JavaScript object passed as template values becomes (see `valuesFromJs`). Its object is also its index
 * (see `hashIndex`): compiled templates read `$h['key']` from it directly.
 *
 * The object is the caller's own when its values are Puppet values as they are (strings, booleans, safe
 * integers), else a copy with the other values converted; either way nothing changes it during the render
 * (an `index` whose prototype may be `Object.prototype`: own properties only are the hash's, which is why
 * the compiler reads no key that `Object.prototype` has through it).
 *
 * It is a Map to every other reader: the Map methods that read are answered from the object, in its key
 * order (the order `Object.keys` gives, which the values already had as a JavaScript object). Like every
 * PHash it is immutable: the methods that would change it throw.
 */
import { type HashIndex, INDEX } from './hash-index.js';
import type { Value } from './values.js';

type Iter<T> = MapIterator<T>;

const hasOwn = Object.hasOwn;

export class RecordHash extends Map<Value, Value> {
  declare readonly [INDEX]: HashIndex;
  /** The keys in order, listed on first need (most hashes are only read by key). */
  private declare names: readonly string[] | undefined;
  /** Whether every value is known to be Data (set by the conversion: values that are Data as given). */
  declare readonly allData: boolean;

  /** @internal made by {@link recordHash}, never with `new`. */
  private constructor() {
    super();
  }

  private keyList(): readonly string[] {
    this.names ??= Object.keys(this[INDEX]);
    return this.names;
  }

  override get size(): number {
    return this.keyList().length;
  }

  override get(key: Value): Value {
    return typeof key === 'string' && hasOwn(this[INDEX], key) ? this[INDEX][key] : undefined;
  }

  override has(key: Value): boolean {
    return typeof key === 'string' && hasOwn(this[INDEX], key);
  }

  override forEach(
    visit: (value: Value, key: Value, map: Map<Value, Value>) => void,
    thisArg?: unknown,
  ): void {
    const names = this.keyList();
    const index = this[INDEX];
    for (let i = 0; i < names.length; i++) {
      const key = names[i]!;
      visit.call(thisArg, index[key], key, this);
    }
  }

  /** Whether every key passes `test` (a `for in` walk: no key list to make for a type check). */
  everyKey(test: (key: Value) => boolean): boolean {
    for (const key in this[INDEX]) if (!test(key)) return false;
    return true;
  }

  everyValue(test: (value: Value) => boolean): boolean {
    const index = this[INDEX];
    for (const key in index) if (!test(index[key])) return false;
    return true;
  }

  override keys(): Iter<Value> {
    return this.keyList().values() as unknown as Iter<Value>;
  }

  override values(): Iter<Value> {
    const index = this[INDEX];
    return this.keyList()
      .map((key) => index[key])
      .values() as unknown as Iter<Value>;
  }

  override entries(): Iter<[Value, Value]> {
    const index = this[INDEX];
    return this.keyList()
      .map((key): [Value, Value] => [key, index[key]])
      .values() as unknown as Iter<[Value, Value]>;
  }

  override [Symbol.iterator](): Iter<[Value, Value]> {
    return this.entries();
  }

  override set(): this {
    throw immutable();
  }

  override delete(): boolean {
    throw immutable();
  }

  override clear(): void {
    throw immutable();
  }
}

/**
 * Makes RecordHashes without running Map's constructor, which allocates a table that a RecordHash never
 * uses (it answers every Map method itself): a plain constructor whose instances have RecordHash's
 * prototype, so they are `instanceof` RecordHash and Map.
 */
const RecordHashInstance = function (this: RecordHash, index: HashIndex, allData: boolean) {
  const fields = this as unknown as { names: undefined; allData: boolean; [INDEX]: HashIndex };
  fields.names = undefined;
  fields.allData = allData;
  fields[INDEX] = index;
} as unknown as new (
  index: HashIndex,
  allData: boolean,
) => RecordHash;
RecordHashInstance.prototype = RecordHash.prototype;

/** A RecordHash of `index` (whose own keys are the hash's); `allData` when all its values are Data. */
export function recordHash(index: HashIndex, allData: boolean): RecordHash {
  return new RecordHashInstance(index, allData);
}

function immutable(): TypeError {
  return new TypeError('a Puppet hash cannot be changed');
}

/** Whether every key of a hash passes `test`, without entry arrays (type checks of fresh values). */
export function everyKey(h: Map<Value, Value>, test: (key: Value) => boolean): boolean {
  if (h instanceof RecordHash) return h.everyKey(test);
  for (const k of h.keys()) if (!test(k)) return false;
  return true;
}

/** Whether every value of a hash passes `test`, without entry arrays. */
export function everyValue(h: Map<Value, Value>, test: (value: Value) => boolean): boolean {
  if (h instanceof RecordHash) return h.everyValue(test);
  for (const v of h.values()) if (!test(v)) return false;
  return true;
}
