#!/usr/bin/env node
// `npm run build`: lib/ compiled from src/ by tsc (what the scripts and benches import), then the CLI
// bundled into one file, lib/cli.bundle.js, which bin/skilltrigger.js runs. Node loads one file
// much faster than ~300 modules: `skilltrigger --version` took ~1.1 s of CPU from lib/ and ~0.5 s
// bundled (docs/speed.md, "The CLI's own start-up").
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
rmSync(path.join(root, 'lib'), { recursive: true, force: true });
const tsc = spawnSync(
  process.execPath,
  [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'],
  {
    cwd: root,
    stdio: 'inherit',
  },
);
if (tsc.status !== 0) process.exit(tsc.status ?? 1);
const { bundleCli } = await import('./bundle-cli.js');
await bundleCli(root);
