#!/usr/bin/env node
// The compiled CLI lives in lib/ (built by `npm ci` through the `prepare` script).
try {
  await import('../lib/cli.bundle.js');
} catch (error) {
  if (error && error.code === 'ERR_MODULE_NOT_FOUND' && String(error.message).includes('lib/cli.bundle.js')) {
    process.stderr.write('skilltrigger: lib/ is missing; run `npm run build` (npm ci does it for you).\n');
    process.exit(1);
  }
  throw error;
}
