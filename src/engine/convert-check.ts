/**
 * The last step of `convert` (engine/convert.ts) before anything is written: the V2 result is judged as
 * `validate` judges it (loaded and planned in memory, every template's schema and hook), so that a value
 * the V1 file gave which V2 refuses is an error of `convert`, at its place in the V1 file, and not of the
 * `apply` that follows once `.sync.yml` is rewritten.
 *
 * Before that, a string where a template's schema wants a number (`minimum_code_coverage_percentage: '90'`)
 * becomes the number: pdk-templates' ERB prints both alike. Nothing else is guessed: a `"no"` for a boolean
 * was true to Ruby in one file and printed as `no` in another.
 */
import {
  type Document,
  isAlias,
  isMap,
  isPair,
  isScalar,
  isSeq,
  LineCounter,
  type Node,
  parseDocument,
} from 'yaml';
import type { Position } from './model.js';
import { plan } from './plan.js';
import { loadProject, type ProjectOptions } from './project.js';
import type { Problem } from './render-plan.js';

/** A setting's schema by template and name, when the template has a schema that declares it. */
export type SettingSchema = (
  template: string,
  setting: string,
) => Readonly<Record<string, unknown>> | undefined;

/**
 * Turns the quoted numbers of settings whose schema wants a number (and not a string) into numbers, in
 * place. Returns what was changed, as `template.setting: '3' -> 3`.
 */
export function coerceNumbers(doc: Document, schemaOf: SettingSchema): string[] {
  const changed: string[] = [];
  if (!isMap(doc.contents)) return changed;
  for (const section of doc.contents.items) {
    if (!isScalar(section.key) || !isMap(section.value)) continue;
    const template = String(section.key.value);
    for (const item of section.value.items) {
      if (!isScalar(item.key) || !isScalar(item.value)) continue;
      const value = item.value;
      if (typeof value.value !== 'string') continue;
      const setting = String(item.key.value);
      const wanted = numberType(schemaOf(template, setting));
      if (wanted === undefined) continue;
      const pattern = wanted === 'integer' ? /^[-+]?\d+$/ : /^[-+]?\d+(?:\.\d+)?$/;
      if (!pattern.test(value.value)) continue;
      const before = value.value;
      value.value = Number(before);
      value.type = 'PLAIN';
      changed.push(`${template}.${setting}: '${before}' -> ${String(value.value)}`);
    }
  }
  return changed;
}

/** 'number' or 'integer' when the schema takes that type and no string. */
function numberType(schema: Readonly<Record<string, unknown>> | undefined): 'number' | 'integer' | undefined {
  const type = schema?.type;
  const types = Array.isArray(type) ? type : [type];
  if (types.includes('string')) return undefined;
  if (types.includes('integer')) return 'integer';
  return types.includes('number') ? 'number' : undefined;
}

export interface CheckInput {
  /** The project root. */
  readonly dir: string;
  /** Absolute path of `.sync.yml`. */
  readonly file: string;
  /** The converted Document: its nodes that came from the V1 file keep their ranges in it. */
  readonly doc: Document;
  /** The V2 text (`doc` printed). */
  readonly after: string;
  /** Positions in the V1 text (line and column of an offset). */
  readonly v1At: (offset: number) => Position;
  readonly options: Pick<ProjectOptions, 'offline' | 'trust' | 'env' | 'gitBinary'>;
}

/**
 * Loads and plans the converted project in memory. Returns its errors, those in `.sync.yml` at the place
 * of their value in the V1 file (said to be about the converted value).
 */
export async function convertedErrors(input: CheckInput): Promise<Problem[]> {
  const project = await loadProject(input.dir, { ...input.options, syncText: input.after });
  const rendered = await plan(project);
  const errors = [...project.problems, ...rendered.problems].filter((p) => p.severity === 'error');
  if (errors.length === 0) return [];
  const unique = new Map<string, Problem>();
  const toV1 = v1Offsets(input);
  for (const p of errors) {
    const moved =
      p.file === input.file
        ? atV1(p, toV1, input)
        : p.code === 'PROJECT_METADATA'
          ? { ...p, hint: `${p.hint ? `${p.hint} ` : ''}(nothing was written)` }
          : { ...p, hint: withNothingWritten(p.hint) };
    unique.set(`${moved.code}\0${moved.message}\0${moved.line}\0${moved.column}`, moved);
  }
  // In the order of the V1 file, as a reader goes through it; others (template files) after.
  return [...unique.values()].sort(
    (a, b) =>
      Number(a.file !== input.file) - Number(b.file !== input.file) ||
      (a.line ?? 0) - (b.line ?? 0) ||
      (a.column ?? 0) - (b.column ?? 0),
  );
}

/** A template's error on the converted settings: what to do about it. */
function withNothingWritten(hint: string | undefined): string {
  const what =
    'the converted settings make the template fail: change them in the V1 file and run `pantograph convert` again (nothing was written)';
  return hint ? `${hint}; ${what}` : what;
}

/** A problem of the V2 text, moved to the V1 text where the value came from, and said so. */
function atV1(
  p: Problem,
  toV1: (line: number, column: number) => Position | undefined,
  input: CheckInput,
): Problem {
  const position = p.line !== undefined ? toV1(p.line, p.column ?? 1) : undefined;
  const { file: _f, line: _l, column: _c, ...rest } = p;
  return {
    ...rest,
    message: `once converted, ${p.message}`,
    ...(position
      ? { file: position.file, line: position.line, column: position.column }
      : { file: input.file }),
    hint: withConvertAdvice(p.hint),
  };
}

const CONVERT_ADVICE =
  'the V1 value is converted as written: change it in the V1 file and run `pantograph convert` again (nothing was written)';

/** The problem's own hint, then the advice: a new sentence after one that ends (`did you mean 'x'?`). */
function withConvertAdvice(hint: string | undefined): string {
  if (!hint) return CONVERT_ADVICE;
  if (/[.?!]$/.test(hint)) return `${hint} The${CONVERT_ADVICE.slice(3)}`;
  return `${hint}; ${CONVERT_ADVICE}`;
}

/**
 * Maps a line and column of the V2 text to the V1 text: the printed V2 text is parsed again, and walked
 * beside the converted Document, whose nodes that came from the V1 file still hold their V1 ranges.
 */
function v1Offsets(input: CheckInput): (line: number, column: number) => Position | undefined {
  const lineCounter = new LineCounter();
  const reparsed = parseDocument(input.after, { version: '1.1', lineCounter });
  const map = new Map<number, number>();
  const walk = (converted: unknown, printed: unknown): void => {
    if (!isNode(converted) || !isNode(printed)) return;
    const from = converted.range?.[0];
    const to = printed.range?.[0];
    if (from !== undefined && to !== undefined && !map.has(to)) map.set(to, from);
    if (isMap(converted) && isMap(printed)) {
      converted.items.forEach((pair, i) => {
        const other = printed.items[i];
        if (!isPair(other)) return;
        walk(pair.key, other.key);
        walk(pair.value, other.value);
      });
    } else if (isSeq(converted) && isSeq(printed)) {
      converted.items.forEach((item, i) => {
        walk(item, printed.items[i]);
      });
    }
  };
  walk(input.doc.contents, reparsed.contents);
  return (line, column) => {
    const start = lineCounter.lineStarts[line - 1];
    if (start === undefined) return undefined;
    const v1 = map.get(start + column - 1);
    return v1 === undefined ? undefined : input.v1At(v1);
  };
}

function isNode(value: unknown): value is Node {
  return isScalar(value) || isMap(value) || isSeq(value) || isAlias(value);
}
