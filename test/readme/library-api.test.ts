/**
 * The README's `defineFunction` example runs as written, with Node, against the built package as a user
 * imports it (`import ... from 'pantograph'`), and prints what the README says; the wrong guess is a typed
 * error at the call to defineFunction.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { removeTempDirs, tempDir } from '../helpers/fs.js';

afterEach(() => removeTempDirs());

const ROOT = resolve(import.meta.dirname, '../..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

/** A directory where `import ... from 'pantograph'` loads this checkout's build. */
function userDir(): string {
  const dir = tempDir();
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(ROOT, join(dir, 'node_modules/pantograph'));
  return dir;
}

function node(dir: string, file: string, text: string) {
  writeFileSync(join(dir, file), text);
  return spawnSync(process.execPath, [join(dir, file)], { cwd: dir, encoding: 'utf8' });
}

it("the README's defineFunction example renders what its comment says", () => {
  const start = README.indexOf("import { defineFunction, EppEvalError, renderEpp } from 'pantograph';");
  expect(start).toBeGreaterThan(0);
  const block = README.slice(start, README.indexOf('```', start));
  const expected = /\/\/ => '([^']*)'/.exec(block)?.[1];
  expect(expected).toBe('HELLO! BYE?');
  // The example's last statement is the render: print its value.
  const lines = block.trimEnd().split('\n');
  const render = lines.findLastIndex((l) => l.startsWith('renderEpp('));
  lines[render] = `console.log(${lines[render]!.replace(/;$/, '')});`;
  const r = node(userDir(), 'example.mjs', lines.join('\n'));
  expect(r.stderr).toBe('');
  expect(r.stdout).toBe(`${expected}\n`);
});

it('the natural wrong guess is EPP_FUNCTION_DEFINITION at the call to defineFunction, before any render', () => {
  const r = node(
    userDir(),
    'guess.mjs',
    `import { defineFunction } from 'pantograph';
let fn;
try {
  fn = defineFunction('myfn', (x) => x * 3);
} catch (e) {
  console.log(e.name, e.code, e.message);
}
console.log(fn === undefined ? 'not defined' : 'defined');
`,
  );
  expect(r.stderr).toBe('');
  expect(r.stdout).toBe(
    "EppError EPP_FUNCTION_DEFINITION defineFunction('myfn', ...): the function comes fourth, after the least and the most arguments it takes; the signature is defineFunction(name, minArgs, maxArgs, (ctx, args, block) => value, block = 'none')\nnot defined\n",
  );
});
