import { removeAllStubProjects } from '../adapters/stub-project.js';
import { ExitCode, SkilltriggerError } from '../errors.js';
import { TOOL_VERSION } from '../version.js';
import { parseCli, USAGE } from './args.js';
import { checkCommand } from './check-command.js';
import { compareCommand } from './compare-command.js';
import { improveCommand } from './improve-command.js';
import { initCommand } from './init-command.js';
import { preflightCommand } from './preflight-command.js';
import { type CliIo, runCommand } from './run-command.js';

/**
 * Dispatch one CLI invocation and return its exit code. The first SIGINT/SIGTERM stops the run
 * gracefully: the claude process group is stopped, its temp project removed, and the partial
 * report written (no verdict, exit 3). A second signal removes what is left and exits at once.
 */
export async function main(argv: string[], io: CliIo): Promise<number> {
  const controller = new AbortController();
  let signals = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    signals++;
    if (signals === 1) {
      io.stderr.write(`\n${signal}: stopping after the current run is killed; writing what was measured…\n`);
      controller.abort();
      return;
    }
    void removeAllStubProjects().finally(() => process.exit(130));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    const args = parseCli(argv, io.env);
    switch (args.command) {
      case 'help':
        io.stdout.write(`${USAGE}\n`);
        return ExitCode.verdict;
      case 'version':
        io.stdout.write(`${TOOL_VERSION}\n`);
        return ExitCode.verdict;
      case 'run':
        return await runCommand(args, io, controller.signal);
      case 'compare':
        return await compareCommand(args, io);
      case 'check':
        return await checkCommand(args, io);
      case 'preflight':
        return await preflightCommand(args, io, controller.signal);
      case 'init':
        return await initCommand(args, io, controller.signal);
      case 'improve':
        return await improveCommand(args, io, controller.signal);
    }
  } catch (error) {
    if (error instanceof SkilltriggerError) {
      io.stderr.write(`skilltrigger: ${error.message}\n`);
      return error.exitCode;
    }
    // A bug, not a user error: show it, but still as a distinct failure.
    io.stderr.write(
      `skilltrigger: unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    return 1;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
