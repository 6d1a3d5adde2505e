#!/usr/bin/env node
// Re-creates expected.txt / expected_error.txt for every case from real Puppet.
//
// usage: ./generate [-j N] [--puppet CMD] [case_name ...]
//
// For each cases/<name>/ it runs, inside that case's folder:
//   puppet epp render template.epp --values '<values.json as a Puppet hash literal>'
// exit 0   -> expected.txt = exact stdout bytes; expected_error.txt removed
// exit !=0 -> expected_error.txt = first "Error:" line on stderr that is not a
//             Facter line, ANSI colours stripped, the case folder's absolute
//             path removed from it; expected.txt removed
'use strict';
const fs = require('fs');
const path = require('path');
const os = require('os');
const { spawn } = require('child_process');

const ROOT = __dirname;
// Copied from generate.cjs: the stdlib-cases folder, rendered with puppetlabs-stdlib on the modulepath
// (STDLIB_MODULEPATH: a directory holding the module as 'stdlib').
const CASES = path.join(ROOT, 'stdlib-cases');

// JSON text -> Puppet literal, keeping number spellings (1.0 stays a Float).
const { jsonToPuppet } = require('./generate.cjs');

function runCase(name, puppet) {
  return new Promise((resolve) => {
    const dir = path.join(CASES, name);
    const vpath = path.join(dir, 'values.json');
    const vtext = fs.existsSync(vpath) ? fs.readFileSync(vpath, 'utf8') : '{}';
    const lit = jsonToPuppet(vtext.trim() || '{}');
    const [cmd, ...pre] = puppet;
    const child = spawn(cmd, [...pre, 'epp', 'render', '--modulepath', process.env.STDLIB_MODULEPATH, 'template.epp', '--values', lit], {
      cwd: dir, env: { ...process.env, LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8' },
    });
    const out = [], err = [];
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => err.push(d));
    child.on('close', (code) => {
      const okFile = path.join(dir, 'expected.txt');
      const errFile = path.join(dir, 'expected_error.txt');
      if (code === 0) {
        fs.writeFileSync(okFile, Buffer.concat(out));
        fs.rmSync(errFile, { force: true });
        resolve({ name, ok: true });
      } else {
        const lines = Buffer.concat(err).toString('utf8')
          .replace(/\x1b\[[0-9;]*m/g, '').split(/\r?\n/);
        let line = lines.find((l) => /^Error: /.test(l) && !/^Error: Facter/.test(l)) || 'Error: (no message)';
        line = line.split(dir + path.sep).join('').split(dir).join('.');
        fs.writeFileSync(errFile, line + '\n');
        fs.rmSync(okFile, { force: true });
        resolve({ name, ok: false, line });
      }
    });
  });
}

async function main() {
  const args = process.argv.slice(2);
  let jobs = Math.max(1, os.cpus().length);
  let puppet = ['puppet'];
  const names = [];
  for (let k = 0; k < args.length; k++) {
    if (args[k] === '-j') jobs = parseInt(args[++k], 10);
    else if (args[k] === '--puppet') puppet = args[++k].split(/\s+/);
    else if (args[k] === '-h' || args[k] === '--help') {
      console.log('usage: ./generate [-j N] [--puppet CMD] [case_name ...]'); return;
    } else names.push(args[k]);
  }
  const all = names.length ? names : fs.readdirSync(CASES).filter((n) =>
    fs.existsSync(path.join(CASES, n, 'template.epp'))).sort();
  const results = [];
  let next = 0;
  async function worker() {
    while (next < all.length) {
      const n = all[next++];
      const r = await runCase(n, puppet);
      results.push(r);
      const expectErr = /^error_/.test(n);
      if (expectErr !== !r.ok) {
        console.log(`NOTE ${n}: ${r.ok ? 'rendered, but its name says error_' : 'failed: ' + r.line}`);
      }
    }
  }
  await Promise.all(Array.from({ length: jobs }, worker));
  const errs = results.filter((r) => !r.ok).length;
  console.log(`generated ${results.length} cases: ${results.length - errs} render, ${errs} error`);
}

main().catch((e) => { console.error(e); process.exit(2); });
