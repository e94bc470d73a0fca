import { main, STOP_SIGNALS } from './cli/main.js';
import { guardedOutput } from './cli/output.js';

const code = await main(process.argv.slice(2), {
  stdout: guardedOutput(process.stdout),
  stderr: guardedOutput(process.stderr),
  env: process.env,
});
process.exitCode = code;
// The work is done (the report written): a Ctrl-C while the process winds down must not turn the
// exit code into a death by signal. Signal listeners do not keep the process alive.
for (const signal of STOP_SIGNALS) process.on(signal, () => process.exit(code));
