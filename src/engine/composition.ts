/**
 * Composition (DESIGN 5.1-5.3): which templates apply, in which order, and which template's file wins
 * an output path that several produce.
 *
 * The applied list is `pdk_template.templates` in order, then every `always_apply` template not listed,
 * alphabetically; `---name` in `templates` excludes an `always_apply` template.
 */
import { didYouMeanHint } from '../shared/did-you-mean.js';
import { problem } from './errors.js';
import type { Position, SyncConfig } from './model.js';
import type { Problem } from './render-plan.js';
import { jsonPointer } from './yaml-data.js';

/** What composition needs to know of a template that the sources offer. */
export interface AvailableTemplate {
  readonly name: string;
  readonly alwaysApply: boolean;
  /** The V1 file keys it replaces (`v1_files`), to point a V1 habit at its V2 form. */
  readonly v1Files?: readonly string[];
}

export interface Composition {
  /** Template names in applied order. */
  readonly applied: readonly string[];
  readonly problems: readonly Problem[];
}

type CompositionConfig = Pick<SyncConfig, 'templates' | 'excluded' | 'settings' | 'positions'>;

/**
 * The applied order. Unknown names are errors (with did-you-mean and position) and are left out of the
 * list, so that the rest can still be checked. A template a source has but cannot read (`unreadable`: a
 * broken template.json) is left out too, without a second error: its own says what is wrong.
 */
export function appliedOrder(
  config: CompositionConfig,
  available: ReadonlyMap<string, AvailableTemplate>,
  unreadable: ReadonlySet<string> = new Set(),
): Composition {
  const problems: Problem[] = [];
  const names = [...available.keys()];
  const applied: string[] = [];
  for (const ref of config.templates) {
    if (unreadable.has(ref.name)) continue;
    if (!available.has(ref.name)) {
      problems.push(
        problem(
          'error',
          'COMPOSITION_UNKNOWN_TEMPLATE',
          `unknown template '${ref.name}': no template source has it`,
          ref.position,
          didYouMeanHint(ref.name, names) ?? 'run `pantograph list` to see the available templates',
        ),
      );
    } else if (!applied.includes(ref.name)) {
      applied.push(ref.name);
    }
  }
  const excluded = new Set(config.excluded.map((r) => r.name));
  for (const ref of config.excluded) {
    const t = available.get(ref.name);
    if (!t) {
      problems.push(
        problem(
          'warning',
          'COMPOSITION_EXCLUDE_UNKNOWN',
          `'---${ref.name}' excludes a template no source has`,
          ref.position,
          didYouMeanHint(ref.name, names),
        ),
      );
    } else if (!t.alwaysApply) {
      problems.push(
        problem(
          'warning',
          'COMPOSITION_EXCLUDE_NOT_ALWAYS_APPLY',
          `'---${ref.name}' has no effect: template '${ref.name}' is not always applied`,
          ref.position,
          'remove the entry; a template that is not listed is not applied',
        ),
      );
    }
  }
  const always = [...available.values()]
    .filter((t) => t.alwaysApply && !applied.includes(t.name) && !excluded.has(t.name))
    .map((t) => t.name)
    .sort();
  applied.push(...always);

  for (const name of Object.keys(config.settings)) {
    if (applied.includes(name) || unreadable.has(name)) continue;
    const known = available.has(name);
    // A V1 habit: a file's key (`Gemfile:`) where V2 keys settings by template.
    const v1 = known ? undefined : [...available.values()].find((t) => t.v1Files?.includes(name));
    problems.push(
      problem(
        'warning',
        'COMPOSITION_SETTINGS_NOT_APPLIED',
        known
          ? `settings for template '${name}', which is not applied`
          : v1
            ? `settings for '${name}', a V1 file key: V2 keys settings by template, and '${name}' is written by '${v1.name}'`
            : `settings for '${name}', which is no template of the sources`,
        config.positions.keyPositionOf(jsonPointer([name])),
        known
          ? `add '${name}' to pdk_template.templates to apply it`
          : v1
            ? v1FileHint(name, v1.name, config.settings[name] ?? {})
            : didYouMeanHint(name, names),
      ),
    );
  }
  return { applied, problems };
}

/**
 * What to write instead of a V1 file's section in a V2 file. A template writes the file, so V1's
 * `delete: true` has no V2 `delete` (a produced path there is SYNC_DELETE_PRODUCED): the file is left to
 * the user under `unmanaged`, to remove by hand.
 */
function v1FileHint(file: string, template: string, section: object): string {
  const lists = [
    ...(Object.hasOwn(section, 'unmanaged')
      ? [`\`unmanaged: true\` is \`pdk_template.unmanaged: [${file}]\``]
      : []),
    ...(Object.hasOwn(section, 'delete')
      ? [
          `\`delete: true\` of a file '${template}' writes is \`pdk_template.unmanaged: [${file}]\` (then remove the file yourself; \`pdk_template.delete\` takes only paths no template writes)`,
        ]
      : []),
  ].join(', ');
  return `${lists ? `per file, ${lists} in V2; ` : ''}settings go under '${template}:' (\`pantograph convert\` moves a V1 file's settings once)`;
}

/** One output of one template, as the path resolution sees it. */
export interface OutputClaim {
  readonly path: string;
  readonly template: string;
  /** Position of the template in the applied list. */
  readonly order: number;
  readonly empty: boolean;
  /** The file producing it, for the report when another template's file wins. */
  readonly position?: Position;
}

export interface PathResolution<T extends OutputClaim> {
  /** One claim per path: the earliest template's non-empty output, else the earliest; in applied order. */
  readonly winners: readonly T[];
  readonly problems: readonly Problem[];
}

/**
 * Picks one output per path among several templates' files: the earliest template in the applied list
 * with non-empty output wins, and the others are reported.
 */
export function resolvePaths<T extends OutputClaim>(claims: readonly T[]): PathResolution<T> {
  // Most paths have one claim: the index of that claim, a list only for a path claimed twice or more.
  const byPath = new Map<string, number | number[]>();
  for (let i = 0; i < claims.length; i++) {
    const path = claims[i]!.path;
    const seen = byPath.get(path);
    if (seen === undefined) byPath.set(path, i);
    else if (typeof seen === 'number') byPath.set(path, [seen, i]);
    else seen.push(i);
  }
  const winners: number[] = [];
  const problems: Problem[] = [];
  for (const [path, seen] of byPath) {
    if (typeof seen === 'number') {
      winners.push(seen);
      continue;
    }
    const list = seen.sort((a, b) => claims[a]!.order - claims[b]!.order).map((i) => claims[i]!);
    const at = Math.max(
      0,
      list.findIndex((c) => !c.empty),
    );
    const winner = list[at]!;
    winners.push(seen[at]!);
    const losers = list.filter((c) => c !== winner);
    const others = losers.map((c) => `'${c.template}'`);
    problems.push(
      problem(
        'warning',
        'COMPOSITION_PATH_CLAIMED',
        `'${path}' is produced by templates '${winner.template}' and ${others.join(', ')}; '${winner.template}' wins`,
        losers[0]!.position,
        'the earliest template in the applied order with non-empty output wins',
      ),
    );
  }
  // Applied order; within one template, the order its files were given in.
  const byOrder = (a: number, b: number) => claims[a]!.order - claims[b]!.order || a - b;
  let sorted = true;
  for (let i = 1; i < winners.length && sorted; i++) sorted = byOrder(winners[i - 1]!, winners[i]!) < 0;
  if (!sorted) winners.sort(byOrder);
  return { winners: winners.map((i) => claims[i]!), problems };
}
