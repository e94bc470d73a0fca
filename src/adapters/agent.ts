/**
 * The agent seam: what the measure loop needs from an agent CLI, so the loop, the verdicts, the
 * reports and the Action never know which agent ran. Each agent adapter implements it from what
 * its real binary does (docs/claude-cli.md, docs/codex.md); `codexAgent` below is the Codex one,
 * which the loop dispatches a Codex run to (src/measure/run-agent.ts). Claude's runs still go
 * through `runOnce` directly, with its warm standby and project prefetch (docs/codex.md "Wiring").
 */
import type { LoadedEntry } from '../decide/decision.js';
import type { AgentId, Outcome, Usage } from '../outcome.js';
import { parseCodexVersion } from './codex-launch.js';
import { killProcessesNaming } from './codex-leftovers.js';
import { type CodexRunOptions, runCodexMeasurement } from './codex-run.js';
import { createCodexStubProject } from './codex-stub.js';

export type { AgentId } from '../outcome.js';

/** One run's stub project: the folder to run in, what identifies the stub, how to remove it all. */
export interface AgentProject {
  dir: string;
  remove(): Promise<void>;
}

/** Reads one agent's output lines and decides; pure. */
export interface AgentDecider {
  feed(line: string): Outcome | undefined;
  finish(exit: { spawnFailed?: boolean; exitCode?: number; signal?: string }): Outcome;
  readonly loaded: LoadedEntry | undefined;
  readonly usage: Usage;
}

/** The result of one measured run, whichever agent ran it. */
export interface AgentRunResult {
  outcome: Outcome;
  loaded?: LoadedEntry;
  usage: Usage;
  durationMs: number;
  /** The model the run was sent with (`-m`, else the agent's default where it is known). */
  model?: string;
}

export interface AgentRunRequest {
  query: string;
  skillName: string;
  /** The listed text under test, already as this agent lists the real SKILL.md. */
  description: string;
  siblings?: Array<{ skillName: string; description: string }>;
  model?: string;
  timeoutMs: number;
  signal?: AbortSignal;
}

export interface Agent {
  id: AgentId;
  /** The executable the user named (`--claude`, `--codex`) or the default on PATH. */
  bin: string;
  /** `<bin> --version` parsed; undefined when the output is not this agent's. */
  parseVersion(output: string): string | undefined;
  /** The stub project this agent finds skills in (and its throwaway home), created fresh per run. */
  createProject(
    request: Pick<AgentRunRequest, 'skillName' | 'description' | 'siblings'>,
  ): Promise<AgentProject>;
  /** One run end to end: launch in a fresh project, decide, kill at the decision, remove its files. */
  run(request: AgentRunRequest): Promise<AgentRunResult>;
  /** What a SIGKILL of skilltrigger could leave: swept at the next start. */
  sweepLeftovers(folder: string): Promise<void>;
}

/**
 * Codex on the seam: its provider (the user's gateway, or the simulated model) comes from the
 * settings; `defaultModel` is what its version sends without `-m` (`codexDefaultModel`), when known.
 */
export function codexAgent(bin: string, provider: CodexRunOptions['provider'], defaultModel?: string): Agent {
  return {
    id: 'codex',
    bin,
    parseVersion: parseCodexVersion,
    createProject: (request) =>
      createCodexStubProject({
        skillName: request.skillName,
        description: request.description,
        ...(request.siblings ? { siblings: request.siblings } : {}),
      }),
    run: async (request) => {
      const model = request.model ?? provider.model ?? defaultModel;
      const result = await runCodexMeasurement({
        bin,
        query: request.query,
        stub: {
          skillName: request.skillName,
          description: request.description,
          ...(request.siblings ? { siblings: request.siblings } : {}),
        },
        provider: { ...provider, ...(request.model ? { model: request.model } : {}) },
        timeoutMs: request.timeoutMs,
        ...(request.signal ? { signal: request.signal } : {}),
      });
      return model === undefined ? result : { ...result, model };
    },
    async sweepLeftovers(folder) {
      await killProcessesNaming(folder);
    },
  };
}
