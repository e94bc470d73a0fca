#!/usr/bin/env node
// The compiled CLI lives in lib/ (built by `npm ci` through the `prepare` script).
import { readdirSync } from 'node:fs';

const missing = (error) =>
  error && error.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('lib/cli.bundle.js');
/** A build is swapping lib/ (scripts/build.js renames the old one to `.lib-old-<pid>`, then the new one in). */
const swapping = () => {
  try {
    return readdirSync(new URL('..', import.meta.url)).some((name) => name.startsWith('.lib-old-'));
  } catch {
    return false;
  }
};

for (let attempt = 0; ; attempt++) {
  try {
    await import('../lib/cli.bundle.js');
    break;
  } catch (error) {
    if (!missing(error)) throw error;
    if (attempt < 40 && swapping()) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      continue;
    }
    process.stderr.write('skilltrigger: lib/ is missing; run `npm run build` (npm ci does it for you).\n');
    process.exit(1);
  }
}
