import type { GateResult } from '../agents/gates.js';
import type { AgentChoice, AgentId } from '../agents/ids.js';

/** What the gates need; the CLI builds it from flags, the Action from inputs. */
export interface PreflightSettings {
  /**
   * The agents the measurement runs on, each with its model when there are several (default: the
   * default agent alone, with `model`/`models`); each agent's gates run.
   */
  agents?: readonly AgentChoice[];
  /** Each agent's executable, for its gates (default: its own, on PATH). */
  bins?: Partial<Record<AgentId, string>>;
  /** Tests only: the machine-wide skills folder each other agent's conflict gate reads. */
  systemSkillsFolders?: Partial<Record<AgentId, string>>;
  /** The user's environment; claude gets it as a measured run would (`claudeEnvironment`). */
  env: NodeJS.ProcessEnv;
  /** `CLAUDE_CODE_MAX_RETRIES` for the round-trip, as for the runs. */
  maxRetries: number;
  model?: string;
  /** `--model a,b`: the round trip runs once for each (then `model` is ignored). */
  models?: string[];
  /** The skill's name, for the conflict gate; without it only the plugin list is checked. */
  skillName?: string;
  /** Several skills' names (the Action measures every changed skill after one preflight); checked each, with `skillName`. */
  skillNames?: string[];
  /** The results folder, which holds the toggles file. */
  out: string;
  allowConflict: boolean;
  /** Bound for `--version`, `auth status`, `plugin list` (default 30 s). */
  commandTimeoutMs?: number;
  /** Bound for the round-trip (default 60 s: a 400 alone costs ~6 s of re-sends). */
  roundTripTimeoutMs?: number;
  signal?: AbortSignal;
  /** Called as each gate's result is known, in gate order. */
  onGate?: (result: GateResult) => void;
  /** Tests only: the sleep gate's platform. */
  platform?: NodeJS.Platform;
  now?: () => Date;
}
