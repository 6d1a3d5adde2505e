/**
 * The modules `managed_modules.yml` lists, each with its options and its place in the file. modulesync
 * takes a list of names (`- puppet-ntp`) or a mapping of names to their options (`puppet-ntp: {namespace:
 * acme}`); a list item that is a name with its options (`- puppet-ntp: {namespace: acme}`) is read as
 * meant, with a note, as modulesync itself would take the whole mapping for a name. Anything else is an
 * error at its file:line:col, every one at once, before anything is written.
 */
import { basename } from 'node:path';
import { EngineError, problem } from '../engine/errors.js';
import { type Data, type DataMap, isMap, type Position, type PositionLookup } from '../engine/model.js';
import type { Problem } from '../engine/render-plan.js';
import { escapePointerSegment } from '../engine/yaml-data.js';

export interface ManagedModule {
  /** As written: `puppet-ntp`, or `namespace/puppet-ntp`. */
  readonly name: string;
  readonly options: DataMap;
  /** Its name in the fleet file: a plain name (it names the clone's directory), unique. */
  readonly fleetName: string;
}

/** A fleet repository name (fleet.schema.json). */
const PLAIN_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

export interface ManagedModules {
  readonly modules: readonly ManagedModule[];
  /** What was read otherwise than modulesync reads it; one line each. */
  readonly notes: readonly string[];
}

const SHAPES =
  'a module is a name (`- puppet-ntp`), or a name with its options (`- puppet-nginx: {namespace: acme}`)';

export function readManagedModules(data: Data, positions: PositionLookup, file: string): ManagedModules {
  const problems: Problem[] = [];
  const notes: string[] = [];
  const modules: ManagedModule[] = [];
  /** Each module's options by their pointer, for the position of a bad option. */
  const optionsAt: string[] = [];
  const fail = (pointer: string, message: string, hint: string) =>
    problems.push(problem('error', 'FLEET_MODULESYNC', message, positions.positionOf(pointer), hint));
  const namesAt: Position[] = [];
  const take = (name: string, options: Data | undefined, pointer: string, at: Position) => {
    if (options !== null && options !== undefined && !isMap(options)) {
      fail(
        pointer,
        `the options of module '${name}' are ${describe(options)}, not a mapping`,
        'give them as a mapping: `puppet-nginx: {namespace: acme}`',
      );
      return;
    }
    modules.push({ name, options: options ?? {}, fleetName: name });
    optionsAt.push(pointer);
    namesAt.push(at);
  };

  if (Array.isArray(data)) {
    data.forEach((item, i) => {
      const pointer = `/${i}`;
      if (typeof item === 'string' && item.trim() !== '') {
        take(item, {}, pointer, positions.positionOf(pointer));
        return;
      }
      const keys = isMap(item) ? Object.keys(item) : [];
      if (isMap(item) && keys.length === 1 && keys[0]!.trim() !== '') {
        const name = keys[0]!;
        const at = positions.keyPositionOf(`${pointer}/${escapePointerSegment(name)}`);
        take(name, item[name], `${pointer}/${escapePointerSegment(name)}`, at);
        notes.push(
          `${where(at)}: module '${name}' is given as a name with its options in a list: read as such ` +
            '(modulesync itself reads options only when managed_modules.yml is a mapping of names to options)',
        );
        return;
      }
      fail(
        pointer,
        `list item ${i + 1} is ${describe(item)}: ${SHAPES}`,
        isMap(item)
          ? 'write one module per item, its name as the only key: `- puppet-nginx: {namespace: acme}`'
          : 'write the module repository name (quoted if YAML reads it as something else)',
      );
    });
  } else if (isMap(data)) {
    for (const [name, options] of Object.entries(data)) {
      const pointer = `/${escapePointerSegment(name)}`;
      take(name, options, pointer, positions.keyPositionOf(pointer));
    }
  } else if (data !== null) {
    fail(
      '',
      `${basename(file)} is ${describe(data)}: it lists modules, as a list of names or a mapping of names to their options`,
      'write `- puppet-ntp`, one module a line',
    );
  }
  modules.forEach((m, i) => {
    problems.push(
      ...optionProblems(m, (key) => positions.positionOf(`${optionsAt[i]}/${escapePointerSegment(key)}`)),
    );
  });
  const named = fleetNames(modules, namesAt, problems, notes);
  problems.sort((a, b) => (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0));
  if (problems.length > 0) throw errorOf(problems);
  return { modules: named, notes };
}

/**
 * Each module's name in the fleet file: `namespace/module` becomes `namespace-module` (a fleet name
 * names the clone's directory), with a note; a name that would collide with an earlier one takes a
 * suffix, with a note at its place; a name that cannot name a repository (`../etc`, `.hidden`) is an
 * error at its place. So the file written is one the fleet takes.
 */
function fleetNames(
  modules: readonly ManagedModule[],
  namesAt: readonly Position[],
  problems: Problem[],
  notes: string[],
): ManagedModule[] {
  // Names as written: a module named plainly keeps its name, a renamed one gives way.
  const taken = new Set(modules.map((m) => m.name));
  const used = new Set<string>();
  return modules.map((m, i) => {
    const at = namesAt[i]!;
    const parts = m.name.split('/');
    if (parts.some((p) => p === '' || p === '.' || p === '..' || p.startsWith('.'))) {
      problems.push(
        problem(
          'error',
          'FLEET_MODULESYNC',
          `module '${m.name}' is not a repository path: a part of it is empty or starts with '.'`,
          at,
          'write the module repository name, or `namespace/name`',
        ),
      );
      return m;
    }
    const plain = m.name.replace(/[^A-Za-z0-9._-]/g, '-');
    if (!PLAIN_NAME.test(plain)) {
      problems.push(
        problem(
          'error',
          'FLEET_MODULESYNC',
          `module '${m.name}' cannot name a fleet repository: '${plain}' does not start with a letter or digit`,
          at,
          'a fleet repository name is letters, digits and . _ -, starting with a letter or digit',
        ),
      );
      return m;
    }
    let name = plain;
    for (let n = 2; used.has(name) || (name !== m.name && taken.has(name)); n++) {
      name = `${plain}-${n}`;
    }
    used.add(name);
    if (name !== plain) {
      notes.push(
        `${where(at)}: module '${m.name}' is named '${name}' in the fleet file: '${plain}' names another module (a fleet name is plain: it names the clone's directory)`,
      );
    } else if (name !== m.name) {
      notes.push(
        `${where(at)}: module '${m.name}' is named '${name}' in the fleet file (a fleet name is plain: it names the clone's directory)`,
      );
    }
    return { ...m, fleetName: name };
  });
}

/** A module's options the fleet file carries over; strings there, so anything else is an error. */
export const CARRIED_OPTIONS: readonly string[] = ['namespace', 'remote'];

function optionProblems(m: ManagedModule, at: (key: string) => Position): Problem[] {
  return Object.entries(m.options).flatMap(([key, value]) => {
    const bare = key.replace(/^:/, '');
    // An option left empty is none, as modulesync reads it.
    if (!CARRIED_OPTIONS.includes(bare) || typeof value === 'string' || value === null) return [];
    return [
      problem(
        'error',
        'FLEET_MODULESYNC',
        `option \`${bare}\` of module '${m.name}' is ${describe(value)}, not a string`,
        at(key),
        `write it as a string: \`${bare}: ...\``,
      ),
    ];
  });
}

function errorOf(problems: readonly Problem[]): EngineError {
  const first = problems[0]!;
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : '';
  return new EngineError('FLEET_MODULESYNC', `${first.message}${more}`, {
    position: { file: first.file!, line: first.line!, column: first.column! },
    hint: first.hint,
    problems,
  });
}

function where(p: Position): string {
  return `${p.file}:${p.line}:${p.column}`;
}

function describe(value: Data | undefined): string {
  if (value === null || value === undefined) return 'empty';
  if (Array.isArray(value)) return 'a list';
  if (isMap(value)) {
    const n = Object.keys(value).length;
    return n === 0 ? 'an empty mapping' : `a mapping of ${n} ${n === 1 ? 'key' : 'keys'}`;
  }
  if (typeof value === 'string') return value.trim() === '' ? 'an empty name' : `'${value}'`;
  return `${typeof value === 'bigint' ? 'the number' : `the ${typeof value}`} ${String(value)}`;
}
