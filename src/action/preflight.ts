import * as core from '@actions/core';
import { type AgentGates, GATE_NAMES, type GateName, type GateResult, gateLabel } from '../agents/gates.js';
import type { AgentChoice, AgentId } from '../agents/ids.js';
import { AGENTS, agentFacts, DEFAULT_AGENT } from '../agents/registry.js';
import type { InitInfo } from '../agents/runs.js';
import { type PreflightResult, runPreflight } from '../preflight/preflight.js';
import { renderReminders } from '../preflight/render.js';
import { annotate } from './annotate.js';

/**
 * The Action's gate phase (docs/action.md): the CLI's own `runPreflight` — cli, auth, round-trip,
 * conflict, sleep, roster — each shown as its own log group, with anything not ok annotated (the
 * fix is the annotation's text). What differs from the CLI is only what a workflow author is told
 * to do: the Action's fixes name its inputs, not `claude auth login`.
 */

export interface ActionGates {
  passed: boolean;
  /** Cancelled (SIGINT/SIGTERM) while the gates ran: nothing was measured. */
  interrupted: boolean;
  /** One result per gate, in gate order. */
  findings: GateResult[];
  cliVersion?: string;
  /** The stub-less run's init event: the roster every measured report records. */
  rosterInit?: InitInfo;
  /** A conflict was found and `allow-conflict` measures anyway: the reports' `conflictAllowed`. */
  conflictAllowed: boolean;
  /** Ends the sleep holder; call once measuring is over. */
  release(): void;
  /** Each model's round-trip usage (keyed by model as asked, `default` for the CLI's): what `max-cost-usd` estimates from. */
  roundTripUsage?: PreflightResult['roundTripUsage'];
  /** The model each round trip reported, keyed as `roundTripUsage` (an alias resolved). */
  roundTripModels?: PreflightResult['roundTripModels'];
  /**
   * What each other agent's gates found (src/agents/runtime.ts): the version its cli gate read, for
   * the reports, and its round trip's usage, what `max-cost-usd` estimates its runs from.
   */
  agentGates?: Partial<Record<AgentId, AgentGates>>;
}

export interface ActionGateOptions {
  /** The environment every agent gets (already cleaned of the runner's secrets). */
  env: NodeJS.ProcessEnv;
  maxRetries: number;
  model?: string;
  /** `models`: the round trip runs for each. */
  models?: string[];
  /** `agents` (absent: Claude Code alone): each agent's gates run, Claude Code's first. */
  agents?: AgentChoice[];
  /** Each agent's executable, as installed. */
  bins?: Partial<Record<AgentId, string>>;
  /** The skills to be measured: the conflict gate checks each name. */
  skillNames: string[];
  /** The results folder (holds the conflict gate's toggles file). */
  out: string;
  allowConflict: boolean;
  timeoutSeconds: number;
  /** The version the Action installed, to warn when `claude --version` says otherwise. */
  expectedVersion?: string;
  /** A fork's pull_request run: GitHub withheld the secrets, and the auth fix says so. */
  forkWithoutSecrets: boolean;
  signal: AbortSignal;
}

/** The default agent, whose cli gate the Action's install is checked against. */
const DEFAULT = agentFacts(DEFAULT_AGENT);

/** The auth fix a workflow author can act on (the CLI's says `claude auth login`). */
export function actionAuthFix(forkWithoutSecrets: boolean): string {
  return forkWithoutSecrets
    ? 'this pull request comes from a fork, and GitHub passes no secrets to its pull_request runs: a maintainer can measure it from a branch of this repository'
    : // biome-ignore lint/suspicious/noTemplateCurlyInString: a workflow expression the user copies
      'pass a key from a secret: `anthropic-api-key: ${{ secrets.ANTHROPIC_API_KEY }}` (or set ANTHROPIC_API_KEY / CLAUDE_CODE_OAUTH_TOKEN in the step env)';
}

/**
 * Another agent's auth fix in the Action's words (the CLI's says which variable to export): its key
 * input from the registry, fed from the secret of the same name (`openai-api-key` from OPENAI_API_KEY).
 */
export function agentAuthFix(id: AgentId, forkWithoutSecrets: boolean): string {
  if (forkWithoutSecrets) return actionAuthFix(true);
  const facts = agentFacts(id);
  const secret = facts.inputs.apiKey.toUpperCase().replaceAll('-', '_');
  return `pass a key from a secret: \`${facts.inputs.apiKey}: \${{ secrets.${secret} }}\` (or set ${facts.secretVariables.join(' / ')} in the step env)`;
}

/** The Action's wording of a gate result (pure): its own fixes where the CLI's name a terminal. */
export function forTheAction(result: GateResult, forkWithoutSecrets: boolean): GateResult {
  const other = result.agent !== undefined && result.agent !== DEFAULT_AGENT ? result.agent : undefined;
  if (other !== undefined) {
    return result.gate === 'auth' && result.status === 'fail' && other in AGENTS
      ? { ...result, fix: agentAuthFix(other as AgentId, forkWithoutSecrets) }
      : result;
  }
  if (result.gate === 'auth' && result.status === 'fail') {
    return { ...result, fix: actionAuthFix(forkWithoutSecrets) };
  }
  if (
    result.gate === 'round-trip' &&
    result.status === 'fail' &&
    result.fix === agentFacts(DEFAULT_AGENT).loginFix
  ) {
    return { ...result, fix: `the API key was refused: ${actionAuthFix(forkWithoutSecrets)}` };
  }
  return result;
}

/** A cli gate that answered another version than the one installed (a stale cache entry) warns (pure). */
export function versionDrift(
  cli: GateResult,
  expected: string | undefined,
  answered: string | undefined,
): GateResult {
  if (cli.status !== 'ok' || expected === undefined || answered === undefined || answered === expected) {
    return cli;
  }
  return {
    ...cli,
    status: 'warn',
    reason: `${DEFAULT.bin} ${answered} answered, not the ${expected} installed`,
    fix: `clear the Actions cache entry skilltrigger-${DEFAULT.id}-* so the pinned version is installed again`,
  };
}

/**
 * Each gate as its own log group, opened when the gate before it has answered (the gates run one
 * after another, in `GATE_NAMES` order), so a group spans its gate's work; closed with its result.
 * Anything not ok is then annotated, the fix as the annotation's text.
 */
class GateGroups {
  private open: GateName | undefined;

  start(gate: GateName | undefined): void {
    if (gate === undefined) return;
    core.startGroup(`Gate: ${gate}`);
    this.open = gate;
  }

  show(result: GateResult): void {
    if (result.agent) {
      // Another agent's gates follow Claude Code's, each in a group of its own.
      this.end();
      core.startGroup(`Gate: ${result.agent} ${result.gate}`);
      this.print(result);
      core.endGroup();
      return;
    }
    if (this.open !== result.gate) {
      this.end();
      this.start(result.gate);
    }
    this.print(result);
    this.end();
    this.start(GATE_NAMES[GATE_NAMES.indexOf(result.gate) + 1]);
  }

  private print(result: GateResult): void {
    core.info(`${result.status} · ${result.reason}`);
    if (result.fix && result.status !== 'ok') core.info(`fix: ${result.fix}`);
    if (result.status === 'fail' || result.status === 'warn') {
      annotate(result.status === 'fail' ? 'error' : 'warning', result.fix ?? result.reason, {
        title: `skilltrigger: gate ${gateLabel(result)} ${result.status === 'fail' ? 'failed' : 'warns'}: ${result.reason}`,
      });
    }
  }

  end(): void {
    if (this.open === undefined) return;
    core.endGroup();
    this.open = undefined;
  }
}

/** Runs every gate once for the skills about to be measured. */
export async function runActionGates(opts: ActionGateOptions): Promise<ActionGates> {
  const findings: GateResult[] = [];
  const groups = new GateGroups();
  groups.start(GATE_NAMES[0]);
  // With several agents each gate takes its agent's own model, as the CLI's run does.
  const several = (opts.agents?.length ?? 0) > 1;
  const defaultModel = several ? opts.agents?.find((a) => a.agent === DEFAULT_AGENT)?.model : opts.model;
  const preflight = await runPreflight({
    env: opts.env,
    maxRetries: opts.maxRetries,
    ...(opts.agents ? { agents: opts.agents } : {}),
    ...(opts.bins === undefined ? {} : { bins: opts.bins }),
    ...(defaultModel === undefined ? {} : { model: defaultModel }),
    ...(opts.models === undefined ? {} : { models: opts.models }),
    skillNames: opts.skillNames,
    out: opts.out,
    allowConflict: opts.allowConflict,
    roundTripTimeoutMs: Math.max(60, opts.timeoutSeconds * 2) * 1000,
    signal: opts.signal,
    onGate: (raw) => {
      const result = forTheAction(raw, opts.forkWithoutSecrets);
      findings.push(result);
      groups.show(result);
    },
  }).finally(() => groups.end());
  const cli = findings.findIndex((f) => f.gate === 'cli' && f.agent === undefined);
  const checked = cli < 0 ? undefined : findings[cli];
  if (checked) {
    const drifted = versionDrift(checked, opts.expectedVersion, preflight.cliVersion);
    if (drifted !== checked) {
      findings[cli] = drifted;
      annotate('warning', drifted.fix ?? drifted.reason, {
        title: `skilltrigger: gate cli warns: ${drifted.reason}`,
      });
    }
  }
  const reminders = renderReminders(preflight.reminders);
  if (reminders) annotate('warning', reminders.trimEnd(), { title: 'skilltrigger: plugins still disabled' });
  return {
    passed: preflight.passed,
    interrupted: preflight.interrupted,
    // onGate saw every gate that ran; the rest (an interrupted preflight) come from the result.
    findings: preflight.gates.map(
      (g) =>
        findings.find((f) => f.gate === g.gate && f.agent === g.agent) ??
        forTheAction(g, opts.forkWithoutSecrets),
    ),
    ...(preflight.cliVersion === undefined ? {} : { cliVersion: preflight.cliVersion }),
    ...(preflight.rosterInit === undefined ? {} : { rosterInit: preflight.rosterInit }),
    conflictAllowed: preflight.conflictAllowed,
    release: preflight.release,
    ...(preflight.roundTripUsage === undefined ? {} : { roundTripUsage: preflight.roundTripUsage }),
    ...(preflight.roundTripModels === undefined ? {} : { roundTripModels: preflight.roundTripModels }),
    ...(preflight.agentGates === undefined ? {} : { agentGates: preflight.agentGates }),
  };
}
