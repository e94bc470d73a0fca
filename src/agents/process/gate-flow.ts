/**
 * The gate flow of an agent that runs its own five gates (Codex's, Gemini's): cli (its version
 * read and judged), then its listing probe started beside the rest (it talks to a loopback server
 * only), auth, round-trip, conflict (a same-named skill in its folders or in the probe's listing)
 * and roster (what a measured run lists besides the stub). Each agent hands in its steps; the flow
 * holds their order, the recording and the stops. Never throws for a failing gate.
 */
import os from 'node:os';
import type { Usage } from '../../outcome.js';
import type { AgentGateSettings, GateResult } from '../gates.js';
import { gateBook, gateNames, type RoundTrip, roundTripGate, worstGate } from './gate-book.js';

/** What an agent's listing probe found: every skill it lists, in order, and the probe project's skills folder. */
export type GateProbe<Skill> =
  | { kind: 'listed'; skills: Skill[]; projectSkills: string }
  | { kind: 'failed'; reason: string };

/** What every agent's gate flow is told: its share of the gates' settings, and where its temp folders go (default the OS temp dir). */
export type GateFlowSettings = Pick<
  AgentGateSettings,
  'model' | 'skillName' | 'skillNames' | 'allowConflict' | 'roundTripTimeoutMs' | 'signal' | 'onGate'
> & { root?: string };

/** One agent's gates, step by step: what it reads and how it judges each. */
export interface GateSteps<Skill extends { file: string }, Chosen, Roster> {
  /** The id its gates are marked with. */
  agent: string;
  /** Why the gates after a failed cli gate are skipped. */
  needsCli: string;
  /** Its CLI's version (`--version`), undefined when it did not say. */
  version(root: string): Promise<string | undefined>;
  judgeCli(version: string | undefined): GateResult;
  /** Its listing probe of a run with no stub, against a loopback server. */
  probe(root: string): Promise<GateProbe<Skill>>;
  /** The auth gate's result, and what its key chose (undefined without a key: no round trip). */
  auth(): Promise<{ result: GateResult; chosen?: Chosen }>;
  /** The round trip's run and judge for what the key chose. */
  roundTrip(chosen: Chosen): RoundTrip;
  /** Its skill folders scanned once, then the conflict gate's judgment of one name (undefined: no name). */
  conflicts(): Promise<(name: string | undefined, listed: readonly Skill[]) => GateResult>;
  /** What the probe's listing holds besides the probe's own skills, and the roster gate's judgment of it. */
  roster(skills: readonly Skill[], projectSkills: string): Roster;
  judgeRoster(roster: Roster | undefined, why: string, version: string): GateResult;
}

/** What an agent's gates found. */
export interface GateFlowResult<Roster> {
  /** cli, auth, round-trip, conflict, roster; each marked with the agent's id. */
  gates: GateResult[];
  interrupted: boolean;
  version?: string;
  /** The round trip's tokens: what a run costs, the estimate's start. */
  roundTripUsage?: Usage;
  roster?: Roster;
  conflictAllowed: boolean;
}

export async function runGateFlow<Skill extends { file: string }, Chosen, Roster>(
  steps: GateSteps<Skill, Chosen, Roster>,
  settings: GateFlowSettings,
): Promise<GateFlowResult<Roster>> {
  const book = gateBook(steps.agent, settings);
  const result: GateFlowResult<Roster> = { gates: book.gates, interrupted: false, conflictAllowed: false };
  const done = (why?: string): GateFlowResult<Roster> => {
    result.interrupted = book.skipRest(why);
    return result;
  };
  const root = settings.root ?? os.tmpdir();

  const version = await steps.version(root);
  if (book.interrupted()) return done();
  book.record(steps.judgeCli(version));
  if (version === undefined) return done(steps.needsCli);
  result.version = version;

  const probing = steps.probe(root);
  try {
    const auth = await steps.auth();
    book.record(auth.result);
    const trip = auth.chosen === undefined ? undefined : steps.roundTrip(auth.chosen);
    if ((await roundTripGate(book, { ...settings, root }, trip, result)) === 'aborted') return done();
    const probe = await probing;
    if (book.interrupted()) return done();
    const conflict = await conflictGate(steps, settings, probe);
    if (conflict) book.record(conflict);
    result.conflictAllowed = conflict?.status === 'warn' && settings.allowConflict;
    if (probe.kind === 'listed') result.roster = steps.roster(probe.skills, probe.projectSkills);
    book.record(
      steps.judgeRoster(
        result.roster,
        probe.kind === 'failed' ? `the listing probe failed: ${probe.reason}` : '',
        version,
      ),
    );
    return done();
  } finally {
    await probing.catch(() => undefined);
  }
}

/**
 * The conflict gate: each name checked against the agent's folders and the probe's listing (the
 * probe project's own skills aside); the worst result stands for them all.
 */
async function conflictGate<Skill extends { file: string }, Chosen, Roster>(
  steps: GateSteps<Skill, Chosen, Roster>,
  settings: GateFlowSettings,
  probe: GateProbe<Skill>,
): Promise<GateResult | undefined> {
  const names = gateNames(settings);
  const judge = await steps.conflicts();
  const listed =
    probe.kind === 'listed' ? probe.skills.filter((s) => !s.file.startsWith(`${probe.projectSkills}/`)) : [];
  return worstGate((names.length === 0 ? [undefined] : names).map((name) => judge(name, listed)));
}
