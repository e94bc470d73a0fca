import os from 'node:os';
import type { AgentId } from '../agents/ids.js';
import { removeAllStubProjects } from '../agents/process/stub-project.js';
import { checkTempFolder, fullDiskMessage } from '../agents/process/temp-folder.js';
import { DEFAULT_AGENT, SECRET_VARIABLES } from '../agents/registry.js';
import { killAllAgentGroups, removeInterruptedWrites, sweepDeadRuns } from '../agents/runtime.js';
import { ExitCode, SkilltriggerError } from '../errors.js';
import { registerSecrets } from '../mask.js';
import { TOOL_VERSION } from '../version.js';
import { type CliArgs, parseCli, USAGE } from './args.js';
import { checkCommand } from './check-command.js';
import { compareCommand } from './compare-command.js';
import { renderCommandHelp } from './help/help.js';
import { improveApplyCommand } from './improve-apply.js';
import { improveCommand } from './improve-command.js';
import { initCommand } from './init-command.js';
import { matrixCommand } from './matrix-command.js';
import { preflightCommand } from './preflight-command.js';
import { rosterExportCommand } from './roster-command.js';
import { type CliIo, runCommand } from './run-command.js';
import { viewCommand } from './view-command.js';

/**
 * SIGHUP is a closed terminal or SSH session: the same request to stop as Ctrl-C, and left to its
 * default it would end the process with the description on disk and an agent still running.
 */
export const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** Once no agent of the command runs any more, the lock and temp files a killed one left mid-write can go. */
async function removeInterruptedWritesAfter(
  startedAgents: boolean,
  env: NodeJS.ProcessEnv,
  sinceMs: number,
): Promise<void> {
  if (startedAgents) await removeInterruptedWrites(env, sinceMs);
}

/** The commands that start an agent's CLI: they make temp folders, and may leave a lock behind. */
function startsAgents(args: CliArgs): boolean {
  switch (args.command) {
    case 'run':
    case 'preflight':
    case 'init':
    case 'improve':
    case 'check':
    case 'roster-export':
      return true;
    case 'matrix':
      return args.merge.length === 0;
    default:
      return false;
  }
}

/** The agents a command runs: what a second signal kills (none for a command that runs no agent). */
export function agentsRun(args: CliArgs): AgentId[] {
  switch (args.command) {
    case 'run':
      return args.agents?.map((a) => a.agent) ?? [DEFAULT_AGENT];
    case 'preflight':
      return args.agents.map((a) => a.agent);
    case 'roster-export':
      return [args.agent];
    default:
      return startsAgents(args) ? [DEFAULT_AGENT] : [];
  }
}

/** What the second signal says: the agents it killed, by name, or the runs when none is known yet. */
export function secondSignalText(signal: NodeJS.Signals, agents: readonly AgentId[]): string {
  const killed = agents.length === 0 ? 'every run' : agents.join(' and ');
  return `\n${signal} again: ${killed} killed; writing what was measured…\n`;
}

/**
 * Dispatch one CLI invocation and return its exit code. The first SIGINT/SIGTERM/SIGHUP stops the
 * run gracefully: the claude process group gets TERM (KILL after a grace), its temp project is
 * removed, and the partial report written (no verdict, exit 3). A second signal SIGKILLs every
 * claude process group at once (a claude or a tool that ignores TERM cannot outlive it) and removes
 * the temp projects; the report is still written. A third exits at once.
 */
export async function main(argv: string[], io: CliIo): Promise<number> {
  registerSecrets(io.env, SECRET_VARIABLES);
  /** Whether this command starts claude (and so may leave a lock behind), and the agents it runs. */
  const command: { startsAgents: boolean; agents: AgentId[] } = { startsAgents: false, agents: [] };
  const stop = stopOnSignals(io, command);
  stop.listen(true);
  const startedAt = Date.now();
  try {
    const args = parseCli(argv, io.env);
    command.startsAgents = startsAgents(args);
    command.agents = agentsRun(args);
    // Every command that starts claude makes temp folders: a missing or full temp folder is said
    // as such here, not as a missing claude or a stack trace later. `check` only probes the
    // listing, and a full folder there is told by the full-disk message below.
    if (command.startsAgents && args.command !== 'check') await checkTempFolder(io.env);
    // What a SIGKILLed skilltrigger left (its temp folders, their claude groups) goes first (temp-owner.ts).
    if (command.startsAgents) await sweepDeadRuns(os.tmpdir(), io.env);
    return await dispatch(args, io, stop.signal);
  } catch (error) {
    return await errorExit(error, io);
  } finally {
    // The last leftovers go while the signals are still listened to: a signal in this window counts
    // as the second (or third) one, rather than ending the process by its default action, with no
    // exit code.
    try {
      await removeInterruptedWritesAfter(command.startsAgents, io.env, startedAt);
      await stop.sweeping();
    } finally {
      stop.listen(false);
    }
  }
}

/**
 * The stop signals as `main` hears them: the first aborts `signal`, the second kills every agent's
 * process group and removes the temp projects (`sweeping`: the command does not return before that
 * ends), the third exits at once.
 */
function stopOnSignals(io: CliIo, command: { agents: AgentId[] }) {
  const controller = new AbortController();
  let signals = 0;
  let sweeping: Promise<void> | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    signals++;
    if (signals === 1) {
      io.stderr.write(`\n${signal}: stopping after the current run is killed; writing what was measured…\n`);
      controller.abort();
      return;
    }
    killAllAgentGroups();
    if (signals === 2) {
      io.stderr.write(secondSignalText(signal, command.agents));
      sweeping = removeAllStubProjects().catch(() => undefined);
      return;
    }
    void removeAllStubProjects().finally(() => process.exit(130));
  };
  return {
    signal: controller.signal,
    listen(on: boolean): void {
      for (const signal of STOP_SIGNALS) {
        if (on) process.on(signal, onSignal);
        else process.off(signal, onSignal);
      }
    },
    sweeping: (): Promise<void> | undefined => sweeping,
  };
}

/** One parsed command run to its exit code. */
async function dispatch(args: CliArgs, io: CliIo, signal: AbortSignal): Promise<number> {
  switch (args.command) {
    case 'help':
      io.stdout.write(args.topic === undefined ? `${USAGE}\n` : renderCommandHelp(args.topic));
      return ExitCode.verdict;
    case 'version':
      io.stdout.write(`${TOOL_VERSION}\n`);
      return ExitCode.verdict;
    case 'run':
      return await runCommand(args, io, signal);
    case 'compare':
      return await compareCommand(args, io);
    case 'check':
      return await checkCommand(args, io);
    case 'preflight':
      return await preflightCommand(args, io, signal);
    case 'view':
      return await viewCommand(args, io);
    case 'init':
      return await initCommand(args, io, signal);
    case 'improve':
      return await improveCommand(args, io, signal);
    case 'improve-apply':
      return await improveApplyCommand(args, io);
    case 'matrix':
      return await matrixCommand(args, io, signal);
    case 'roster-export':
      return await rosterExportCommand(args, io);
  }
}

/** A thrown error as the user reads it and its exit code: a user error, a full disk, or a bug. */
async function errorExit(error: unknown, io: CliIo): Promise<number> {
  if (error instanceof SkilltriggerError) {
    io.stderr.write(`skilltrigger: ${error.message}\n`);
    return error.exitCode;
  }
  const full = await fullDiskMessage(io.env, error);
  if (full !== undefined) {
    io.stderr.write(`skilltrigger: ${full}\n`);
    return ExitCode.input;
  }
  // A bug, not a user error: show it, but still as a distinct failure.
  io.stderr.write(
    `skilltrigger: unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  return 1;
}
