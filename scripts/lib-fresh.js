// Whether lib/ is current: its bundle is newer than every source and config it is built from.
// `npm ci` (the `prepare` script), `npx skilltrigger` in this checkout (npm runs `prepare` again
// when it links the checkout) and `npm run demo` build only when this says no.
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/** What a build reads besides src/: a change to any of them makes lib/ stale. */
const CONFIGS = [
  'tsconfig.json',
  'tsconfig.build.json',
  'package.json',
  'scripts/build.js',
  'scripts/bundle-cli.js',
];

const mtime = (file) => {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return 0;
  }
};

/** The newest modification time under `dir`, folders included (a deleted file changes its folder's), 0 when missing. */
function newest(dir) {
  let latest = mtime(dir);
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true, recursive: true });
  } catch {
    return latest;
  }
  for (const e of entries) latest = Math.max(latest, mtime(path.join(e.parentPath ?? e.path, e.name)));
  return latest;
}

/**
 * True when lib/cli.bundle.js exists and is newer than src/ and the build's configs. A build
 * dates the bundle to the moment it started (scripts/build.js), so a source saved while it ran
 * still counts as newer.
 */
export function libIsCurrent(root) {
  const built = mtime(path.join(root, 'lib', 'cli.bundle.js'));
  if (built === 0) return false;
  const sources = Math.max(newest(path.join(root, 'src')), ...CONFIGS.map((f) => mtime(path.join(root, f))));
  return sources <= built;
}
