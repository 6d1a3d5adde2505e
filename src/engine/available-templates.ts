/**
 * The templates a project's sources offer, loaded as far as each use needs. Every template's head is read
 * up front (it decides whether the template loads and whether it is always applied); the rest of one (its
 * schema compiled, its files listed, its hooks) is loaded when the template is first asked for, and kept.
 * A `status` asks only for the applied ones; `list`, `validate` or the language server iterate, and so
 * load, all of them: what each sees is what an eager load gave.
 */
import type { LoadedTemplate, TemplateLocation } from './model.js';
import type { Problem } from './render-plan.js';
import { completeTemplate, readTemplateHead, type TemplateHead } from './repository.js';

/** The two views a Project keeps: the available templates, and what loading each listed one found. */
export interface TemplateCatalogue {
  readonly available: ReadonlyMap<string, LoadedTemplate>;
  /** Every listed template's problems, by name (those that failed to load included). */
  readonly problems: ReadonlyMap<string, readonly Problem[]>;
  /** The heads of the available templates, in listing order: what composition needs. */
  readonly heads: ReadonlyMap<string, TemplateHead>;
}

/** Reads the head of each listed template (`locations`, first source wins already applied). */
export function templateCatalogue(locations: readonly TemplateLocation[]): TemplateCatalogue {
  const heads = new Map<string, TemplateHead>();
  const headProblems = new Map<string, readonly Problem[]>();
  for (const location of locations) {
    const read = readTemplateHead(location);
    headProblems.set(location.name, read.problems);
    if (read.head !== undefined) heads.set(location.name, read.head);
  }
  const completed = new Map<string, { template: LoadedTemplate; problems: readonly Problem[] }>();
  const complete = (name: string) => {
    let done = completed.get(name);
    if (done === undefined) {
      const load = completeTemplate(heads.get(name)!);
      done = { template: load.template!, problems: load.problems };
      completed.set(name, done);
    }
    return done;
  };
  return {
    heads,
    available: new LazyMap([...heads.keys()], (name) => complete(name).template),
    problems: new LazyMap([...headProblems.keys()], (name) =>
      heads.has(name) ? [...headProblems.get(name)!, ...complete(name).problems] : headProblems.get(name)!,
    ),
  };
}

/** A read-only map of known keys whose values are made on first read, then kept. */
class LazyMap<V> implements ReadonlyMap<string, V> {
  private readonly made = new Map<string, V>();
  private readonly names: ReadonlySet<string>;

  constructor(
    names: readonly string[],
    private readonly make: (name: string) => V,
  ) {
    this.names = new Set(names);
  }

  get size(): number {
    return this.names.size;
  }

  has(name: string): boolean {
    return this.names.has(name);
  }

  get(name: string): V | undefined {
    if (!this.names.has(name)) return undefined;
    let value = this.made.get(name);
    if (value === undefined) {
      value = this.make(name);
      this.made.set(name, value);
    }
    return value;
  }

  keys(): MapIterator<string> {
    return this.names.keys();
  }

  *values(): MapIterator<V> {
    for (const name of this.names) yield this.get(name)!;
  }

  *entries(): MapIterator<[string, V]> {
    for (const name of this.names) yield [name, this.get(name)!];
  }

  [Symbol.iterator](): MapIterator<[string, V]> {
    return this.entries();
  }

  forEach(callback: (value: V, key: string, map: ReadonlyMap<string, V>) => void): void {
    for (const [name, value] of this.entries()) callback(value, name, this);
  }
}
