import { agentFacts, DEFAULT_AGENT } from '../agents/registry.js';
import { InputError } from '../errors.js';
import type { MatrixQuery, MatrixReport } from '../schemas/matrix.js';
import { buildMatrixReport } from './build.js';

/**
 * `matrix --merge <files…>`: the legs of one sharded matrix become one matrix (pure). Legs that did
 * not measure the same thing cannot be added up: other skills or descriptions, other settings, another
 * CLI or model, a leg missing or given twice — each is refused (exit 1) naming the leg and the
 * difference. The merged queries come back in the full matrix's order: leg i's j-th query is query
 * j·n + i − 1 of the whole (src/matrix/plan.ts `shardQueries`).
 */

/** One leg as read from disk: its file name (for the messages) and its report. */
export interface MatrixLeg {
  file: string;
  report: MatrixReport;
}

const FIX =
  'merge the legs of one `skilltrigger matrix --shard i/n` run, measured with the same skills and flags';

function skillsKey(report: MatrixReport): string {
  return JSON.stringify(report.skills.map((s) => [s.name, s.description.sha256, s.evalSet?.sha256 ?? null]));
}

/** How a leg's prompts reached claude; a version 1 leg records none, as it ran cold. */
const launchOf = (r: MatrixReport) => r.settings.launch ?? 'cold';
const LAUNCH_WORDS = {
  standby: 'through warm standbys (launch standby)',
  cold: 'cold (launch cold, --standby 0 or a version 1 report)',
} as const;

/** Whose CLI ran a leg's runs; a report without `agent` was measured on Claude Code. */
const agentOf = (r: MatrixReport) => r.agent ?? DEFAULT_AGENT;

/** The first difference between a leg and the first leg, in words; undefined when they match. */
function difference(first: MatrixReport, leg: MatrixReport, firstFile: string): string | undefined {
  const firstNames = first.skills.map((s) => s.name).join(', ');
  const legNames = leg.skills.map((s) => s.name).join(', ');
  if (firstNames !== legNames)
    return `installed other skills (${legNames}) than ${firstFile} (${firstNames})`;
  if (skillsKey(first) !== skillsKey(leg)) {
    const changed = leg.skills
      .filter((s, i) => JSON.stringify(s) !== JSON.stringify(first.skills[i]))
      .map((s) => s.name);
    return `measured other descriptions or eval sets than ${firstFile} (skill ${changed.join(', ')})`;
  }
  if (agentOf(first) !== agentOf(leg))
    return `was measured on ${agentOf(leg)}, ${firstFile} on ${agentOf(first)}`;
  // The first request differs in one tool text between the two launches (docs/speed.md).
  if (launchOf(first) !== launchOf(leg))
    return `ran its prompts ${LAUNCH_WORDS[launchOf(leg)]}, ${firstFile} ${LAUNCH_WORDS[launchOf(first)]}`;
  const settings = (r: MatrixReport) => JSON.stringify({ ...r.settings, launch: launchOf(r) });
  if (settings(first) !== settings(leg))
    return `was measured with other settings than ${firstFile} (${JSON.stringify(leg.settings)} against ${JSON.stringify(first.settings)})`;
  if (first.cli.version !== leg.cli.version)
    return `was measured with ${agentFacts(agentOf(leg)).cliLabel} ${leg.cli.version ?? 'unknown'}, ${firstFile} with ${first.cli.version ?? 'unknown'}`;
  if (first.model.requested !== leg.model.requested)
    return `asked for model ${leg.model.requested ?? `${agentOf(leg)}'s default`}, ${firstFile} for ${first.model.requested ?? `${agentOf(first)}'s default`}`;
  if (first.simulated !== leg.simulated)
    return `was ${leg.simulated ? '' : 'not '}measured against the simulated model, ${firstFile} was${first.simulated ? '' : ' not'}`;
  if (first.conflictAllowed !== leg.conflictAllowed)
    return `was measured with --allow-conflict ${leg.conflictAllowed ? 'on' : 'off'}, ${firstFile} with it ${first.conflictAllowed ? 'on' : 'off'}`;
  return undefined;
}

/** The merged matrix, or an InputError naming the first leg that cannot be merged and why. */
export function mergeMatrixLegs(legs: readonly MatrixLeg[], createdAt: Date): MatrixReport {
  const head = checkedHead(legs);
  const count = head.report.shard?.count ?? 1;
  const byIndex = legsByIndex(legs, count);
  const reportedModels: Record<string, number> = {};
  for (const leg of legs)
    for (const [model, n] of Object.entries(leg.report.model.reported))
      reportedModels[model] = (reportedModels[model] ?? 0) + n;
  const first = head.report;
  return buildMatrixReport(
    {
      toolVersion: first.tool.version,
      createdAt,
      simulated: first.simulated,
      agent: agentOf(first),
      cliVersion: first.cli.version,
      requestedModel: first.model.requested,
      reportedModels,
      roster: first.roster,
      environment: first.environment,
      settings: { ...first.settings, launch: launchOf(first) },
      conflictAllowed: first.conflictAllowed,
      shard: null,
      mergedLegs: legs.length,
      skills: first.skills,
      planned: legs.reduce((n, l) => n + l.report.totals.planned, 0),
      aborted: legs.some((l) => l.report.aborted),
      interrupted: legs.some((l) => l.report.interrupted),
    },
    interleavedQueries(legs, byIndex, count),
  );
}

/** The first leg, once every leg is a leg of the same sharded run, measured as the first was. */
function checkedHead(legs: readonly MatrixLeg[]): MatrixLeg {
  const [head] = legs;
  if (head === undefined) throw new InputError({ file: '--merge' }, 'names no leg', FIX);
  for (const leg of legs) {
    if (leg.report.shard === null)
      throw new InputError(
        { file: leg.file },
        'is a whole matrix, not a leg of a sharded one (no --shard)',
        FIX,
      );
    if (leg.report.shard.count !== head.report.shard?.count)
      throw new InputError(
        { file: leg.file },
        `is leg ${leg.report.shard.index}/${leg.report.shard.count}, but ${head.file} is a leg of ${head.report.shard?.count}`,
        FIX,
      );
    const why = difference(head.report, leg.report, head.file);
    if (why !== undefined) throw new InputError({ file: leg.file }, why, FIX);
  }
  return head;
}

/** Each leg by its index among the `count`, once no leg is given twice and none is missing. */
function legsByIndex(legs: readonly MatrixLeg[], count: number): Map<number, MatrixLeg> {
  const byIndex = new Map<number, MatrixLeg>();
  for (const leg of legs) {
    const index = leg.report.shard?.index ?? 0;
    const twin = byIndex.get(index);
    if (twin !== undefined)
      throw new InputError({ file: leg.file }, `is leg ${index}/${count} again (so is ${twin.file})`, FIX);
    byIndex.set(index, leg);
  }
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((i) => !byIndex.has(i));
  if (missing.length > 0)
    throw new InputError(
      { file: '--merge' },
      `lacks leg${missing.length === 1 ? '' : 's'} ${missing.map((i) => `${i}/${count}`).join(', ')} of the ${count}`,
      'pass every leg of the sharded run',
    );
  return byIndex;
}

/** The legs' queries in the whole matrix's order: leg i's j-th query is query j·n + i − 1. */
function interleavedQueries(
  legs: readonly MatrixLeg[],
  byIndex: ReadonlyMap<number, MatrixLeg>,
  count: number,
): MatrixQuery[] {
  const queries: MatrixQuery[] = [];
  const longest = Math.max(...legs.map((l) => l.report.queries.length));
  for (let j = 0; j < longest; j++)
    for (let i = 1; i <= count; i++) {
      const q = byIndex.get(i)?.report.queries[j];
      if (q !== undefined) queries.push(q);
    }
  return queries;
}
