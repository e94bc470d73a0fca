#!/usr/bin/env node
// `npm run build`: lib/ compiled from src/ by tsc (what the scripts and benches import), then the CLI
// bundled into one file, lib/cli.bundle.js, which bin/skilltrigger.js runs. Node loads one file
// much faster than ~300 modules: `skilltrigger --version` took ~1.1 s of CPU from lib/ and ~0.5 s
// bundled (docs/speed.md, "The CLI's own start-up").
//
// The build is atomic: it writes into a folder beside lib/ (`.lib-build-<pid>`) and renames it to
// lib/ only once it is complete. A build killed midway leaves the previous lib/ as it was, and a
// demo or test reading lib/ while another build runs keeps reading a whole one. A folder a killed
// build left behind is removed by the next build.
//
// `--if-stale` builds only when lib/ is older than a source or config (scripts/lib-fresh.js): the
// `prepare` script uses it, so `npm ci` builds once and `npx skilltrigger` in this checkout does not
// build again.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, renameSync, rmSync, utimesSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { libIsCurrent } from './lib-fresh.js';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
if (process.argv.includes('--if-stale') && libIsCurrent(root)) process.exit(0);

/** True while a process of that id runs (a build in another terminal keeps its folder). */
function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

// Leftovers of killed builds: `.lib-build-<pid>` (unfinished) and `.lib-old-<pid>` (the replaced lib/).
for (const name of readdirSync(root)) {
  const m = /^\.lib-(?:build|old)-(\d+)$/.exec(name);
  if (m && !alive(Number(m[1]))) rmSync(path.join(root, name), { recursive: true, force: true });
}

const started = new Date();
const staging = path.join(root, `.lib-build-${process.pid}`);
rmSync(staging, { recursive: true, force: true });
mkdirSync(staging);
const tsc = spawnSync(
  process.execPath,
  [
    path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'),
    '-p',
    'tsconfig.build.json',
    '--outDir',
    staging,
  ],
  { cwd: root, stdio: 'inherit' },
);
if (tsc.status !== 0) {
  rmSync(staging, { recursive: true, force: true });
  process.exit(tsc.status ?? 1);
}
const { bundleCli } = await import('./bundle-cli.js');
await bundleCli(root, staging);
// Dated to the build's start: a source saved during the build is newer, so lib/ reads as stale.
utimesSync(path.join(staging, 'cli.bundle.js'), started, started);

// rename(2) cannot replace a folder that has files: the old lib/ steps aside, the new one takes its
// name, two renames microseconds apart, then the old one goes.
const lib = path.join(root, 'lib');
const old = path.join(root, `.lib-old-${process.pid}`);
let replaced = true;
try {
  renameSync(lib, old);
} catch (error) {
  if (error.code !== 'ENOENT') throw error;
  replaced = false;
}
renameSync(staging, lib);
if (replaced) rmSync(old, { recursive: true, force: true });
