/**
 * The agent seam: what the measure loop needs from an agent CLI, so the loop, the verdicts, the
 * reports and the Action never know which agent ran. Each agent implements it from what its real
 * binary does (docs/claude-cli.md, docs/codex.md): `codexAgent` below is Codex's, and claude's is
 * src/agents/claude/agent.ts, built on the run flow with its warm standbys and project prefetch.
 */

import type { ContextTurn } from '../inputs/context.js';
import type { AgentId, Outcome, Usage } from '../outcome.js';
import { killAllClaudeGroups } from './claude/children.js';
import type { InitInfo, LoadedEntry } from './claude/decision.js';
import type { CodexProvider } from './codex/launch.js';
import { killAllCodexGroups } from './codex/process.js';
import { runCodexMeasurement } from './codex/run.js';
import type { CodexStubSpec } from './codex/stub.js';

export type { AgentId } from '../outcome.js';

/**
 * Where one run's time went, as readings of the run's clock (ms): the project ready, the agent
 * spawned, its init event read, its request started (claude's `requesting` status), the decision (or timeout) known, the process group gone, the
 * project removed (or handed over for removal). For `npm run bench`; never in a report.
 */
export interface RunPhases {
  started: number;
  projectReady: number;
  spawned: number;
  init?: number;
  asked?: number;
  decided: number;
  gone: number;
  cleaned: number;
}

/** The result of one measured run, whichever agent ran it. */
export interface AgentRunResult {
  outcome: Outcome;
  /** What the first decisive action loaded; set for triggered and not-triggered runs. */
  loaded?: LoadedEntry;
  usage: Usage;
  durationMs: number;
  /** The model the run reported (claude's init event) or was sent with (`-m`, else the agent's default). */
  model?: string;
  /** The agent that ran it, as the run records say it: absent for claude (`RunRecord.agent`). */
  agent?: AgentId;
  /** `--late N`: a miss whose run loaded the stub in a later turn. */
  late?: boolean;
  /**
   * The agent reported no tokens for a run that paid for its prompt (Codex reports usage only when
   * a turn completes, so a run killed at its decision has none): a budget counts its estimate.
   */
  usageUnreported?: true;
  /** What only the harness reads: the CLI's init event, the decision-to-exit latency, the phases. */
  init?: InitInfo;
  decisionToExitMs?: number;
  phases?: RunPhases;
}

/** One run the loop asks for. */
export interface AgentRunRequest {
  query: string;
  /** Which side's text is under test (0 the candidate, 1 the baseline): each agent holds its stubs. */
  side: number;
  /** The model to ask for (absent: the agent's default). */
  model?: string;
  timeoutMs: number;
  /** Aborting kills the run and removes its files; the run then rejects and is not recorded. */
  signal?: AbortSignal;
}

/** A run planned after the current one, by the agent that will run it. */
export interface UpcomingRun {
  agent: AgentId;
  side: number;
  model?: string;
}

export interface Agent {
  id: AgentId;
  /** One run end to end: launch in a fresh project, decide, kill at the decision, remove its files. */
  run(request: AgentRunRequest): Promise<AgentRunResult>;
  /**
   * Told, once a run has started, which runs come next (every agent's, nearest first), so it may
   * prepare its own while this one runs (claude: the next project, or the next standbys). Nothing
   * prepared may talk to the model before its run.
   */
  ahead?(upcoming: readonly UpcomingRun[]): void;
  /** Discards whatever was prepared and not run, and waits for every removal. Never throws. */
  settle?(): Promise<void>;
}

/**
 * SIGKILLs the process group of every agent run still alive, whichever agent it is (the second
 * interrupt, a cancelled job). Synchronous; the temp folders are removed by their own sweep.
 */
export function killAllAgentGroups(): void {
  killAllClaudeGroups();
  killAllCodexGroups();
}

/**
 * Codex on the seam: its provider (the user's gateway, or the simulated model) comes from the
 * settings; `defaultModel` is what its version sends without `-m` (`codexDefaultModel`), when known;
 * `stubs` holds each side's skill as its SKILL.md holds it (the stub writer lists it as Codex does);
 * `context`, the turns every run starts with (docs/context.md).
 */
export function codexAgent(
  bin: string,
  provider: CodexProvider,
  stubs: readonly CodexStubSpec[],
  defaultModel?: string,
  context?: readonly ContextTurn[],
): Agent {
  return {
    id: 'codex',
    run: async (request) => {
      const stub = stubs[request.side];
      if (!stub) throw new Error(`no Codex stub was given for side ${request.side}`);
      const model = request.model ?? provider.model ?? defaultModel;
      const result = await runCodexMeasurement({
        bin,
        query: request.query,
        stub,
        provider: { ...provider, ...(request.model ? { model: request.model } : {}) },
        timeoutMs: request.timeoutMs,
        ...(request.signal ? { signal: request.signal } : {}),
        ...(context ? { context } : {}),
      });
      const { usage } = result;
      const silent =
        usage.inputTokens +
          usage.outputTokens +
          usage.cacheReadInputTokens +
          usage.cacheCreationInputTokens ===
        0;
      return {
        outcome: result.outcome,
        ...(result.loaded === undefined ? {} : { loaded: result.loaded }),
        usage,
        durationMs: result.durationMs,
        agent: 'codex',
        ...(model === undefined ? {} : { model }),
        ...(silent ? { usageUnreported: true as const } : {}),
      };
    },
  };
}
