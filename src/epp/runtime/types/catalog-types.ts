/**
 * The types of what a template has no value of: Binary, Runtime, Object, and the catalogue's Class and
 * Resource types (`Class[apache]`, `File['/tmp']`). `puppet epp render` evaluates them without a catalogue,
 * so they print, compare and parameterize as Puppet's do. Binary values are made by `Binary(...)`, Runtime
 * values (Ruby Symbols) come from YAML values files; no value of a template is an instance of the others.
 * Part of the Puppet type system; import it from `../types.js`.
 */
import { PBinary, PObject, PSymbol, type Value } from '../values.js';
import { PType, quote } from './internal.js';

/** A type no template value belongs to: only the same kind of type is assignable to it. */
abstract class ValuelessType extends PType {
  isInstance(_v: Value): boolean {
    return false;
  }
}

/** `Binary`: the type of {@link PBinary} values (`Binary('aGk=')`). */
export class BinaryType extends PType {
  readonly name = 'Binary';
  isInstance(v: Value): boolean {
    return v instanceof PBinary;
  }
  protected override assignableFrom(o: PType): boolean {
    return o instanceof BinaryType;
  }
  toString(): string {
    return 'Binary';
  }
}

/** `Runtime[ruby, 'Symbol']`: a value of the runtime's own; the one kind here is a YAML `:symbol` ({@link PSymbol}). */
export class RuntimeType extends PType {
  readonly name = 'Runtime';
  constructor(
    readonly runtime?: string,
    readonly runtimeName?: string,
  ) {
    super();
  }
  isInstance(v: Value): boolean {
    if (!(v instanceof PSymbol)) return false;
    return (
      this.runtime === undefined ||
      (this.runtime === 'ruby' && (this.runtimeName === undefined || this.runtimeName === 'Symbol'))
    );
  }
  /**
   * Plain `Runtime`, as Puppet's mismatch messages name a Symbol ("got Runtime"); `type(x, 'generalized')`
   * keeps the parameters, as Puppet's does (functions/misc.ts).
   */
  override generalize(): PType {
    return this.runtime === undefined ? this : new RuntimeType();
  }
  protected override assignableFrom(o: PType): boolean {
    if (!(o instanceof RuntimeType)) return false;
    if (this.runtime === undefined) return true;
    return (
      o.runtime === this.runtime && (this.runtimeName === undefined || o.runtimeName === this.runtimeName)
    );
  }
  toString(): string {
    if (this.runtime === undefined) return 'Runtime';
    return `Runtime[${this.runtime}${this.runtimeName === undefined ? '' : `, ${quote(this.runtimeName)}`}]`;
  }
}

/** `Object`, which Puppet prints with its (empty) initialization hash. */
export class ObjectType extends ValuelessType {
  readonly name = 'Object';
  /** A value of any named Object type (`Point({'x' => 1})`) is an Object. */
  override isInstance(v: Value): boolean {
    return v instanceof PObject;
  }
  protected override assignableFrom(o: PType): boolean {
    return o instanceof ObjectType;
  }
  toString(): string {
    return 'Object[{}]';
  }
}

/** `Class` and `Class[name]` (`Class['apache']` prints `Class[apache]`). */
export class ClassType extends ValuelessType {
  readonly name = 'Class';
  constructor(readonly className?: string) {
    super();
  }
  protected override assignableFrom(o: PType): boolean {
    return o instanceof ClassType && (this.className === undefined || o.className === this.className);
  }
  toString(): string {
    return this.className === undefined ? 'Class' : `Class[${this.className}]`;
  }
}

/**
 * `Resource`, `Resource['file']` (printed `File`, each `::` segment capitalized) and a title
 * (`File['/tmp']`). Bare names are Puppet's built-in resource types ({@link BUILT_IN_RESOURCE_TYPES}).
 */
export class ResourceType extends ValuelessType {
  readonly name = 'Resource';
  constructor(
    readonly typeName?: string,
    readonly title?: string,
  ) {
    super();
  }
  protected override assignableFrom(o: PType): boolean {
    if (!(o instanceof ResourceType)) return false;
    if (this.typeName === undefined) return true;
    return o.typeName === this.typeName && (this.title === undefined || o.title === this.title);
  }
  toString(): string {
    if (this.typeName === undefined) return 'Resource';
    const name = this.typeName
      .split('::')
      .map((s) => s.charAt(0).toUpperCase() + s.slice(1))
      .join('::');
    return this.title === undefined ? name : `${name}[${quote(this.title)}]`;
  }
}

/** The resource types Debian's Puppet 7 ships (`puppet/type/*.rb`), which a bare name like `File` means. */
export const BUILT_IN_RESOURCE_TYPES: ReadonlySet<string> = new Set([
  'component',
  'exec',
  'file',
  'filebucket',
  'group',
  'notify',
  'package',
  'resources',
  'schedule',
  'service',
  'stage',
  'tidy',
  'user',
  'whit',
]);
