import { execFileSync } from 'node:child_process';

/** The CLI end-to-end tests spawn `node bin/skilltrigger.js`, which runs the compiled `lib/`. */
export default function setup(): void {
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], {
    stdio: 'inherit',
  });
}
