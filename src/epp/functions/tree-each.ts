/**
 * `tree_each`: every container and value of a nested Array or Hash with its path, depth first or breadth
 * first, as Puppet walks it. Without a block it gives the chosen `[path, value]` pairs as an Array (Puppet
 * gives a Ruby object that prints with its address, which no template can use as text).
 */
import { EppEvalError } from '../errors.js';
import { hashLookup } from '../runtime/compare.js';
import { MAX_COLLECTION_SIZE, tooManyElements } from '../runtime/size-limits.js';
import { describeArgumentMismatches, loneTypeMismatch, type PType } from '../runtime/types.js';
import type { PHash, Value } from '../runtime/values.js';
import { noMatchingSignature, puppetType, typeLabel, untilBreak } from './arguments.js';
import { blockArity } from './block-arity.js';
import { localAlias } from './conversion/dispatch.js';
import { treeEachSignature } from './not-iterable.js';
import { defineFunction } from './registry.js';

/**
 * Counts the elements of the paths and `[path, value]` pairs a walk makes (`n` more), and ends it at the
 * size cap: containers that share elements are walked once per path, as many times as flatten() repeats them.
 */
type Made = (n: number) => void;

function budget(): Made {
  let made = 0;
  return (n) => {
    made += n;
    if (made > MAX_COLLECTION_SIZE) throw tooManyElements('the walk of tree_each()');
  };
}

/** Arrays and hashes: what `tree_each` descends into. */
function isContainer(v: Value): v is Value[] | PHash {
  return Array.isArray(v) || v instanceof Map;
}

function* treeDepthFirst(path: Value[], v: Value, made: Made): Generator<[Value[], Value]> {
  made(path.length + 2);
  yield [path, v];
  if (Array.isArray(v)) for (let i = 0; i < v.length; i++) yield* treeDepthFirst([...path, i], v[i], made);
  else if (v instanceof Map) for (const [k, val] of v) yield* treeDepthFirst([...path, k], val, made);
}

function* treeBreadthFirst(root: Value, made: Made): Generator<[Value[], Value]> {
  let level: [Value[], Value][] = [[[], root]];
  while (level.length > 0) {
    const next: [Value[], Value][] = [];
    for (const [path, v] of level) {
      yield [path, v];
      const step = path.length + 3;
      if (Array.isArray(v)) {
        made(step * v.length);
        v.forEach((item, i) => void next.push([[...path, i], item]));
      } else if (v instanceof Map) {
        made(step * v.size);
        for (const [k, val] of v) next.push([[...path, k], val]);
      }
    }
    level = next;
  }
}

/** Puppet's `OptionsType` of tree_each (its text: OPTIONS_TEXT), made when first needed. */
let optionsType: PType | undefined;
/** tree_each's three dispatches (two block sizes, no block), as Puppet lists them. */
const SIGNATURES = ['Callable[2, 2] block', 'Callable[1, 1] block', undefined].map(treeEachSignature);

/**
 * Options Puppet's `OptionsType` refuses: a lone type mismatch alone (every dispatch refuses it alike, so
 * Puppet merges them: `entry 'order' expects ... got 'bottomup'`), other problems (an unknown key) under
 * each of the three dispatches.
 */
function checkOptions(options: Value): void {
  // A local alias of the function: Puppet names it, with its definition, where the options are refused.
  optionsType ??= localAlias('OptionsType', () =>
    puppetType(
      'Struct',
      new Map<Value, Value>([
        ...[
          'container_type',
          'include_root',
          'include_containers',
          'include_values',
          'order',
          'include_refs',
        ].map((key): [Value, Value] => [
          key,
          puppetType(
            'Optional',
            key === 'container_type'
              ? puppetType('Type')
              : key === 'order'
                ? puppetType('Enum', 'breadth_first', 'depth_first')
                : puppetType('Boolean'),
          ),
        ]),
      ]),
    ),
  );
  if (optionsType.isInstance(options)) return;
  const lone = loneTypeMismatch(optionsType, options, "parameter 'options'");
  if (lone !== undefined) throw new EppEvalError('EPP_ARGUMENTS', `'tree_each' ${lone}`);
  const why = describeArgumentMismatches(optionsType, options, "parameter 'options'").join(
    '\n    rejected: ',
  );
  throw noMatchingSignature(
    'tree_each',
    SIGNATURES.map((signature) => [signature, why] as const),
  );
}

function treeOption(options: PHash | undefined, key: string, fallback: boolean): boolean {
  const v = options ? hashLookup(options, key).value : undefined;
  return v === undefined ? fallback : v === true;
}

export const treeEach = defineFunction(
  'tree_each',
  1,
  2,
  (_ctx, args, block) => {
    const tree = args[0];
    if (!isContainer(tree)) {
      // Puppet's words for its `Variant[Iterator, Array, Hash, Object]` (objects are no templates' values).
      throw new EppEvalError(
        'EPP_ARGUMENTS',
        `'tree_each' parameter 'tree' expects a value of type Iterator, Array, Hash, or Object, got ${typeLabel(tree)}`,
      );
    }
    if (args.length === 2) checkOptions(args[1]);
    const options = args[1] instanceof Map ? args[1] : undefined;
    const order = options ? hashLookup(options, 'order').value : undefined;
    const includeContainers = treeOption(options, 'include_containers', true);
    const includeValues = treeOption(options, 'include_values', true);
    const includeRoot = includeContainers && treeOption(options, 'include_root', true);
    if (!includeContainers && !includeValues) {
      throw new EppEvalError(
        'EPP_ARGUMENTS',
        "Options 'include_containers' and 'include_values' cannot both be false",
      );
    }
    const made = budget();
    const walk = order === 'breadth_first' ? treeBreadthFirst(tree, made) : treeDepthFirst([], tree, made);
    // Puppet's breadth-first walk never reads `include_values` (its iterator returns every value), so
    // neither does this one.
    const values = includeValues || order === 'breadth_first';
    const chosen: [Value[], Value][] = [];
    for (const entry of walk) {
      const [path, v] = entry;
      if (path.length === 0 && !includeRoot) continue;
      if (isContainer(v) ? !includeContainers : !values) continue;
      chosen.push(entry);
    }
    if (!block) return chosen;
    const arity = blockArity('tree_each', block, 2, 1);
    untilBreak(() => {
      for (const [path, v] of chosen) {
        if (arity === 2) block(path, v);
        else block(v);
      }
    });
    return tree;
  },
  'optional',
);
