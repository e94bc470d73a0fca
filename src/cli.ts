import { main, STOP_SIGNALS } from './cli/main.js';
import { guardedOutput } from './cli/output.js';

/** The exit code, once main has returned. */
let code: number | undefined;
// The work is done (the report written): a Ctrl-C while the process winds down must not turn the
// exit code into a death by signal. Listened to from the start, since main stops listening before
// it returns, and a signal in between met no listener and killed the process by its default action.
// While main runs it handles the signals itself. Signal listeners do not keep the process alive.
for (const signal of STOP_SIGNALS) {
  process.on(signal, () => {
    if (code !== undefined) process.exit(code);
  });
}
code = await main(process.argv.slice(2), {
  stdout: guardedOutput(process.stdout),
  stderr: guardedOutput(process.stderr),
  env: process.env,
});
process.exitCode = code;
