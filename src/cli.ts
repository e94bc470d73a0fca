import { main } from './cli/main.js';
import { guardedOutput } from './cli/output.js';

process.exitCode = await main(process.argv.slice(2), {
  stdout: guardedOutput(process.stdout),
  stderr: guardedOutput(process.stderr),
  env: process.env,
});
