import { spawnSync } from 'node:child_process';

/**
 * The CLI end-to-end tests spawn `node bin/skilltrigger.js`, which runs the compiled `lib/`.
 * A failed build is reported but does not stop unrelated tests; the CLI tests then fail on their own.
 */
export default function setup(): void {
  const build = spawnSync(
    process.execPath,
    ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'],
    {
      encoding: 'utf8',
    },
  );
  if (build.status !== 0)
    process.stderr.write(`global setup: tsc build failed:\n${build.stdout}${build.stderr}\n`);
}
