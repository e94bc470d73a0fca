import { spawnSync } from 'node:child_process';
import { installNode, installNode24 } from './action/harness.js';

/**
 * Once, before any test file runs:
 * - the CLI end-to-end tests spawn `node bin/skilltrigger.js`, which runs the bundle `npm run build` writes into `lib/`; a
 *   failed build is reported but does not stop unrelated tests (the CLI tests then fail on their own);
 * - the Action tests run the bundle under Node 24 (npm `node@24`), and the CLI's entry tests run
 *   under Node 22 too (npm `node@22`): installed here, serially, because two test files installing
 *   one into one folder at once were seen to hang npm.
 */
export default function setup(): void {
  const build = spawnSync(process.execPath, ['scripts/build.js'], { encoding: 'utf8' });
  if (build.status !== 0)
    process.stderr.write(`global setup: the build failed:\n${build.stdout}${build.stderr}\n`);
  try {
    installNode24();
  } catch (error) {
    process.stderr.write(
      `global setup: installing node@24 failed (${String(error)}); the Node 24 tests will retry\n`,
    );
  }
  try {
    installNode(22);
  } catch (error) {
    process.stderr.write(
      `global setup: installing node@22 failed (${String(error)}); the Node 22 tests will retry\n`,
    );
  }
}
