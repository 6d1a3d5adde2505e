/**
 * What `pantograph new <kind> <name>` writes, kind by kind: the paths, the object template each comes from
 * and the values it receives, as PDK's generators have them (lib/pdk/generate/*.rb). Object first, its
 * tests after.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { EngineError } from './errors.js';
import { findDeclaration } from './object-find.js';
import { checkName, type ObjectKind, qualified, rubyClassName, WHAT } from './object-names.js';

export interface ObjectOptions {
  /** `new function --type`: `native` (Puppet language, the default) or `v4` (Ruby). */
  readonly type?: string | undefined;
  /** `new task --description`: the task metadata's description. */
  readonly description?: string | undefined;
}

export interface ObjectFile {
  /** Project-relative path. */
  readonly path: string;
  /** Under `object_templates/`, with its values; or the text itself, for files PDK does not template. */
  readonly template?: string;
  readonly values?: Readonly<Record<string, string>>;
  readonly text?: string;
}

export interface ObjectPlan {
  /** The object's full name (`ntp::config`, `ntp::install` for a task, `my_fact`...). */
  readonly name: string;
  /** What was made, for messages: `class`, `unit test for defined type`... */
  readonly label: string;
  readonly files: readonly ObjectFile[];
}

const SPEC_DIR = { class: 'classes', defined_type: 'defines' } as const;

export function planObject(
  root: string,
  module: string,
  kind: ObjectKind,
  given: string,
  options: ObjectOptions = {},
): ObjectPlan {
  checkName(kind, given);
  if (kind !== 'function' && options.type !== undefined) refuseOption('--type', kind);
  if (kind !== 'task' && options.description !== undefined) refuseOption('--description', kind);
  switch (kind) {
    case 'class':
    case 'defined_type': {
      const name = qualified(module, given);
      return { name, label: WHAT[kind], files: [manifest(kind, name), spec(kind, name)] };
    }
    case 'test':
      return testPlan(root, module, given);
    case 'function':
      return functionPlan(root, module, given, options.type ?? 'native');
    case 'task':
      return taskPlan(root, module, given, options.description);
    case 'fact':
      return {
        name: given,
        label: 'fact',
        files: [
          { path: `lib/facter/${given}.rb`, template: 'fact.epp', values: { name: given } },
          { path: `spec/unit/facter/${given}_spec.rb`, template: 'fact_spec.epp', values: { name: given } },
        ],
      };
    case 'provider': {
      const values = { name: given, provider_class: rubyClassName(given) };
      return {
        name: given,
        label: 'provider',
        files: [
          { path: `lib/puppet/type/${given}.rb`, template: 'provider_type.epp', values },
          { path: `lib/puppet/provider/${given}/${given}.rb`, template: 'provider.epp', values },
          { path: `spec/unit/puppet/type/${given}_spec.rb`, template: 'provider_type_spec.epp', values },
          {
            path: `spec/unit/puppet/provider/${given}/${given}_spec.rb`,
            template: 'provider_spec.epp',
            values,
          },
        ],
      };
    }
    case 'transport': {
      const values = { name: given, transport_class: rubyClassName(given) };
      // PDK's names: transport_type.erb is the transport's schema
      return {
        name: given,
        label: 'transport',
        files: [
          { path: `lib/puppet/transport/${given}.rb`, template: 'transport.epp', values },
          { path: `lib/puppet/transport/schema/${given}.rb`, template: 'transport_type.epp', values },
          {
            path: `lib/puppet/util/network_device/${given}/device.rb`,
            template: 'transport_device.epp',
            values,
          },
          { path: `spec/unit/puppet/transport/${given}_spec.rb`, template: 'transport_spec.epp', values },
          {
            path: `spec/unit/puppet/transport/schema/${given}_spec.rb`,
            template: 'transport_type_spec.epp',
            values,
          },
        ],
      };
    }
  }
}

/** `manifests/<parts>.pp` (`init.pp` for the module's own name). */
function manifest(kind: 'class' | 'defined_type', name: string): ObjectFile {
  const parts = name.split('::').slice(1);
  return {
    path: `manifests/${(parts.length > 0 ? parts : ['init']).join('/')}.pp`,
    template: `${kind}.epp`,
    values: { name },
  };
}

/** `spec/classes|defines/<parts>_spec.rb`: the name without the module, or the module's own name. */
function spec(kind: 'class' | 'defined_type', name: string): ObjectFile {
  const parts = name.split('::');
  return {
    path: `spec/${SPEC_DIR[kind]}/${(parts.length > 1 ? parts.slice(1) : parts).join('/')}_spec.rb`,
    template: `${kind}_spec.epp`,
    values: { name },
  };
}

/** `new test`: the spec alone of a class or defined type the module declares in `manifests/`. */
function testPlan(root: string, module: string, given: string): ObjectPlan {
  const found = findDeclaration(root, module, given);
  if (!found) {
    throw new EngineError(
      'OBJECT_NOT_FOUND',
      `no class or defined type '${given}'${given.startsWith(`${module}::`) ? '' : ` or '${module}::${given}'`} in manifests/`,
      {
        hint: `\`new test\` writes the unit test of an existing class or defined type; \`pantograph new class ${given}\` writes a class and its test`,
      },
    );
  }
  if (found.name !== module && !found.name.startsWith(`${module}::`)) {
    throw new EngineError(
      'OBJECT_NAME',
      `${WHAT[found.kind]} '${found.name}' (${found.file}) is outside the module's namespace '${module}'`,
      { hint: `Puppet loads only ${module} and ${module}::* from this module: rename it first` },
    );
  }
  return {
    name: found.name,
    label: `unit test for ${WHAT[found.kind]}`,
    files: [spec(found.kind, found.name)],
  };
}

function functionPlan(root: string, module: string, given: string, type: string): ObjectPlan {
  if (type !== 'native' && type !== 'v4') {
    throw new EngineError('OBJECT_OPTION', `'${type}' is not a function type`, {
      hint: '--type native (Puppet language, functions/<name>.pp; the default) or --type v4 (Ruby, lib/puppet/functions/)',
    });
  }
  const name = qualified(module, given);
  const all = name.split('::');
  const parts = all.slice(1);
  if (type === 'native' && parts.length === 0) {
    // PDK would write functions.pp, which Puppet never loads
    throw new EngineError(
      'OBJECT_NAME',
      `a Puppet-language function cannot be called '${name}', the module's own name`,
      {
        hint: `name it in the module's namespace, e.g. ${module}::${name === module ? 'my_function' : name}`,
      },
    );
  }
  const values = { name, func_name: all.at(-1) as string, namespace: all.slice(0, -1).join('::') };
  const ruby = `lib/puppet/functions/${[module, ...parts].join('/')}.rb`;
  const puppet = `functions/${parts.join('/')}.pp`;
  // As a task, a function is one name whatever its language: Puppet would load one of the two and
  // silently ignore the other (PDK checks only its own target).
  const other = type === 'v4' ? puppet : ruby;
  if (parts.length > 0 && existsSync(join(root, other))) {
    throw new EngineError('OBJECT_EXISTS', `cannot create function '${name}': ${other} already defines it`, {
      hint: 'a function is one name whatever its language (Puppet would load only one of the two): choose another name; nothing was written',
    });
  }
  const object: ObjectFile =
    type === 'v4'
      ? { path: ruby, template: 'functions/v4_function.epp', values }
      : { path: puppet, template: 'functions/native_function.epp', values };
  return {
    name,
    label: 'function',
    files: [
      object,
      {
        path: `spec/functions/${(all.length > 1 ? parts : all).join('/')}_spec.rb`,
        template: 'functions/function_spec.epp',
        values,
      },
    ],
  };
}

/**
 * `tasks/<name>.sh` and its metadata `tasks/<name>.json` (`init` for the module's own name). As PDK, a
 * task of that name in another language (`tasks/<name>.py`...) stops it; `.md` and `.conf` files do not.
 */
function taskPlan(root: string, module: string, given: string, description: string | undefined): ObjectPlan {
  const base = given === module ? 'init' : given;
  const name = given === module ? module : `${module}::${given}`;
  let existing: string[] = [];
  try {
    existing = readdirSync(join(root, 'tasks')).filter(
      (f) => f.startsWith(`${base}.`) && !/\.(md|conf)$/.test(f),
    );
  } catch {
    // no tasks/ yet
  }
  if (existing.length > 0) {
    throw new EngineError(
      'OBJECT_EXISTS',
      `cannot create task '${name}': tasks/${existing.sort()[0]} already defines it`,
      { hint: 'a task is one name whatever its language: choose another name; nothing was written' },
    );
  }
  const metadata = {
    puppet_task_version: 1,
    supports_noop: false,
    description: description ?? 'A short description of this task',
    parameters: {},
  };
  return {
    name,
    label: 'task',
    files: [
      { path: `tasks/${base}.sh`, template: 'task.epp', values: { name: given } },
      { path: `tasks/${base}.json`, text: prettyJson(metadata) },
    ],
  };
}

/**
 * Ruby's `JSON.pretty_generate` as the json gem before 2.8 writes it (PDK's packages): two-space indent,
 * and an empty object as `{` and `  }` on two lines.
 */
function prettyJson(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(/^( *)(".*": )?\{\}(,?)$/gm, '$1$2{\n$1}$3');
}

function refuseOption(option: string, kind: ObjectKind): never {
  throw new EngineError('OBJECT_OPTION', `${option} does not apply to new ${kind}`, {
    hint: option === '--type' ? 'it is for `new function`' : 'it is for `new task`',
  });
}
