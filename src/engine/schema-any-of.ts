/**
 * ajv's errors of a failed `anyOf` are those of every branch, then "must match a schema in anyOf": a
 * wrong version deep in gemfile's `optional` (`{object} or null`) was said five ways, the first "setting
 * 'optional' must be empty (null)" (session 34, found using the web interface). A branch that took the
 * value (its errors are all inside it) is the one the user meant: only its errors are kept. A value no
 * branch takes for its type alone is said once: "must be a string or a list".
 */
import type { ErrorObject } from 'ajv';

export function narrowAnyOf(errors: readonly ErrorObject[]): ErrorObject[] {
  const dropped = new Set<ErrorObject>();
  const merged = new Map<ErrorObject, ErrorObject>();
  errors.forEach((anyOf, index) => {
    if (anyOf.keyword !== 'anyOf' || dropped.has(anyOf)) return;
    const at = anyOf.instancePath;
    const deeper = (e: ErrorObject) => e.instancePath.startsWith(`${at}/`);
    // ajv gives the branches' errors just before the anyOf's own (a branch inside a `$ref` carries the
    // referenced schema's path, so they are found by their place in the value, not by their schema's).
    const branches: ErrorObject[] = [];
    for (let i = index - 1; i >= 0 && (errors[i]!.instancePath === at || deeper(errors[i]!)); i--) {
      branches.push(errors[i]!);
    }
    const here = branches.filter((e) => !deeper(e));
    if (here.length === 0) return;
    if (branches.some(deeper)) {
      // A branch took the value and failed inside it: the others' refusals of the value are noise.
      for (const e of [anyOf, ...here]) dropped.add(e);
      return;
    }
    if (here.every((e) => e.keyword === 'type')) {
      for (const e of here) dropped.add(e);
      const types = here.reverse().flatMap((e) => String(e.params.type).split(','));
      // The wording of one `type` error (json-schema.ts), without a branch's own `x-message`.
      merged.set(anyOf, {
        ...anyOf,
        keyword: 'type',
        params: { type: [...new Set(types)].join(',') },
        parentSchema: {},
      });
    }
  });
  return errors.filter((e) => !dropped.has(e)).map((e) => merged.get(e) ?? e);
}
