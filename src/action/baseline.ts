import * as core from '@actions/core';
import type { InitInfo } from '../agents/runs.js';
import { siblingSetWarnings } from '../compare/siblings.js';
import { messageOf } from '../errors.js';
import type { Skill } from '../inputs/types.js';
import { readReportFile } from '../report/files.js';
import { rosterOf, sha256Hex } from '../schemas/privacy.js';
import type { Report } from '../schemas/report.js';
import { baselineKeyPrefix, restoreBaseline, saveBaseline } from '../system/baseline-cache.js';
import { annotate } from './annotate.js';
import type { BaselineMode, BaselineSave, BaselineUse } from './results/results.js';

/**
 * The baseline of a PR's skill (docs/action.md): the report saved by a push to the default branch, found
 * by the base sha and else by the skill's key prefix. Whether it can stand as the baseline is
 * decided here (pure, `judgeBaseline`); when it cannot and `baseline: measure` is set, the base
 * description is measured in this job instead (paired).
 */

/** What this run's environment looks like, from the gates, to hold a cached report against. */
export interface CurrentEnvironment {
  requestedModel?: string;
  cliVersion?: string;
  /** The stub-less run's init event. */
  rosterInit?: InitInfo;
  /** `competition: siblings`: the sibling set this run measures with, as its report will record it; absent: alone. */
  siblings?: Report['siblings'];
  /**
   * `roster`: the SHA-256 of the crowd this run lists every skill among; null: none (the runner's
   * own catalogue); absent: not known, so not compared.
   */
  crowd?: string | null;
}

/** The decision for one skill before anything is measured. */
export type BaselinePlan =
  | { use: 'cache'; report: Report; baseline: BaselineUse & { kind: 'cache' } }
  | { use: 'paired'; baseline: BaselineUse & { kind: 'paired' } }
  | { use: 'none'; baseline: BaselineUse & { kind: 'none' } };

/** Differences between a cached report's environment and this run's that change what the model sees (pure). */
export function environmentDrift(report: Report, current: CurrentEnvironment, skill: string): string[] {
  const drift: string[] = [];
  const wanted = current.requestedModel ?? null;
  if (report.model.requested !== wanted) {
    drift.push(
      `the model differs: the baseline asked for ${report.model.requested ?? 'the CLI default'}, this run for ${wanted ?? 'the CLI default'}`,
    );
  } else if (current.rosterInit?.model !== undefined) {
    const reported = Object.keys(report.model.reported);
    if (reported.length > 0 && !reported.includes(current.rosterInit.model)) {
      drift.push(
        `the model answering differs: the baseline's runs reported ${reported.join(', ')}, this run's reports ${current.rosterInit.model}`,
      );
    }
  }
  const cli = current.cliVersion ?? current.rosterInit?.cliVersion;
  if (cli !== undefined && report.cli.version !== null && report.cli.version !== cli) {
    drift.push(`the Claude Code CLI differs: the baseline ran ${report.cli.version}, this run ${cli}`);
  }
  if (current.rosterInit && report.roster) {
    const now = rosterOf(current.rosterInit.slashCommands, current.rosterInit.skills, [skill]);
    const before = new Set(report.roster.members);
    const after = new Set(now.members);
    const added = [...after].filter((m) => !before.has(m)).length;
    const removed = [...before].filter((m) => !after.has(m)).length;
    if (added > 0 || removed > 0) {
      drift.push(
        `the roster of skills and commands the model sees differs: ${added} added, ${removed} removed since the baseline`,
      );
    }
  }
  const crowd = crowdDrift(report, current.crowd);
  if (crowd !== undefined) drift.push(crowd);
  return drift;
}

/** How the crowd the cached report was listed among differs from this run's (`roster`); undefined: the same. */
function crowdDrift(report: Report, now: string | null | undefined): string | undefined {
  if (now === undefined) return undefined;
  const before = report.settings.roster?.sha256 ?? null;
  if (before === now) return undefined;
  if (before === null) return 'the baseline was measured without a roster, this run among the roster input';
  if (now === null) return 'the baseline was measured among a roster, this run without one';
  return 'the baseline was measured among another roster than this run';
}

/** The commit a cached report measured, from its key (`<prefix><sha>`, or a refresh's `<prefix><sha>-<tag>`). */
function shaOfKey(matchedKey: string, prefix: string): string | undefined {
  const tail = matchedKey.startsWith(prefix) ? matchedKey.slice(prefix.length) : '';
  return /^([0-9a-fA-F]{7,64})(?:-|$)/.exec(tail)?.[1];
}

/**
 * Whether a restored report can be the baseline (pure). It can when it measured the base
 * description in the same environment; otherwise `measure` re-measures the base in this job, and
 * `cache` compares anyway, saying why the comparison is weak.
 */
export function judgeBaseline(input: {
  mode: BaselineMode;
  report: Report;
  hit: 'exact' | 'prefix';
  sha?: string;
  base: Skill;
  current: CurrentEnvironment;
}): BaselinePlan {
  const { report, base } = input;
  const stale = report.candidate.description.sha256 !== sha256Hex(base.description);
  const drift = environmentDrift(report, input.current, base.name);
  const when = input.sha ? `commit ${input.sha.slice(0, 7)}` : 'an earlier commit';
  if (input.mode === 'measure' && (stale || drift.length > 0)) {
    const why = stale
      ? `the cached baseline (${when}) measured another description than the base branch holds`
      : `the cached baseline (${when}) ran in another environment: ${drift.join('; ')}`;
    return { use: 'paired', baseline: { kind: 'paired', why } };
  }
  // Another competition (a sibling added, removed or reworded) moves the numbers by itself: the
  // base side is measured here, beside this run's siblings, unless the cache alone was asked for.
  const competition = siblingSetWarnings(
    report,
    { siblings: input.current.siblings },
    {
      base: 'the baseline',
      cand: 'this run',
    },
  );
  if (input.mode !== 'cache-only' && competition.length > 0) {
    const why = `the cached baseline (${when}) was measured against other skills: ${competition.map((w) => w.message).join('; ')}`;
    return { use: 'paired', baseline: { kind: 'paired', why } };
  }
  return {
    use: 'cache',
    report,
    baseline: {
      kind: 'cache',
      hit: input.hit,
      ...(input.sha ? { sha: input.sha } : {}),
      createdAt: report.createdAt,
      drift,
      stale,
    },
  };
}

export interface FetchBaselineOptions {
  mode: BaselineMode;
  /** The base branch's SKILL.md, parsed; absent for a new skill. */
  base?: Skill;
  /** Why there is no `base` although the file changed (e.g. it did not parse). */
  baseProblem?: string;
  baseSha: string;
  runnerOs: string;
}

/**
 * A skill's baseline as far as the cache tells it, before the gates: either already settled (no
 * base, nothing cached, unreadable) or a restored report that the gates' environment still judges.
 */
export type FetchedBaseline =
  | { settled: BaselinePlan }
  | { mode: BaselineMode; report: Report; hit: 'exact' | 'prefix'; sha?: string; base: Skill };

/** Restores and reads the baseline of one skill; judging it waits for the gates. Never throws over the cache. */
export async function fetchBaseline(opts: FetchBaselineOptions): Promise<FetchedBaseline> {
  if (opts.mode === 'none') {
    return {
      settled: { use: 'none', baseline: { kind: 'none', why: 'the baseline input is none: measured alone' } },
    };
  }
  const base = opts.base;
  if (base === undefined) {
    return {
      settled: {
        use: 'none',
        baseline: {
          kind: 'none',
          why:
            opts.baseProblem ??
            'a new skill: the base branch has no SKILL.md for it, so there is nothing to compare with',
        },
      },
    };
  }
  // Only cache-only accepts measuring the PR alone: with cache (the default) or measure, a missing
  // baseline is measured here, so a regressed description cannot pass a required check unmeasured.
  const missing = (why: string): FetchedBaseline => ({
    settled:
      opts.mode === 'cache-only'
        ? { use: 'none', baseline: { kind: 'none', why } }
        : { use: 'paired', baseline: { kind: 'paired', why } },
  });

  const restored = await restoreBaseline({ skill: base.name, baseSha: opts.baseSha, os: opts.runnerOs });
  if (restored.hit === 'miss') {
    core.info(`baseline: ${restored.reason}`);
    return missing(
      `no baseline is cached for ${base.name} (a push to the default branch saves one; the cache keeps an entry 7 days after its last use)`,
    );
  }
  core.info(
    `baseline: restored ${restored.matchedKey} (${restored.hit === 'exact' ? 'the base commit' : 'the newest for this skill'})`,
  );
  let report: Report;
  try {
    report = await readReportFile(restored.reportPath);
  } catch (error) {
    const why = messageOf(error);
    annotate('warning', `the cached baseline ${restored.matchedKey} cannot be read: ${why}`);
    return missing(
      `the cached baseline for ${base.name} cannot be read (written by another skilltrigger version?)`,
    );
  }
  const sha = shaOfKey(restored.matchedKey, baselineKeyPrefix(opts.runnerOs, base.name));
  return { mode: opts.mode, report, hit: restored.hit, ...(sha ? { sha } : {}), base };
}

/**
 * A drift run's baseline of one skill (`mode: drift`): the newest report stored for it, whatever
 * commit it measured. It is compared as cached, never re-measured here (the base side of a drift is
 * the past), so it is read as `cache-only`. A report of another description than the skill holds now
 * (its push could not save one) is no baseline for a drift: the text moved too.
 */
export async function fetchDriftBaseline(skill: Skill, runnerOs: string): Promise<FetchedBaseline> {
  const none = (why: string): FetchedBaseline => ({
    settled: { use: 'none', baseline: { kind: 'none', why } },
  });
  const restored = await restoreBaseline({ skill: skill.name, baseSha: 'latest', os: runnerOs });
  if (restored.hit === 'miss') {
    core.info(`baseline: ${restored.reason}`);
    return none(`no baseline is stored for ${skill.name}, so this run's measurement becomes its first`);
  }
  core.info(`baseline: restored ${restored.matchedKey} (the newest stored for this skill)`);
  let report: Report;
  try {
    report = await readReportFile(restored.reportPath);
  } catch (error) {
    annotate('warning', `the stored baseline ${restored.matchedKey} cannot be read: ${messageOf(error)}`);
    return none(
      `the stored baseline for ${skill.name} cannot be read (written by another skilltrigger version?), so this run's measurement replaces it`,
    );
  }
  if (report.candidate.description.sha256 !== sha256Hex(skill.description)) {
    return none(
      `the stored baseline for ${skill.name} measured another description than the default branch holds, so a change there is not the model's alone; this run's measurement becomes its baseline`,
    );
  }
  const sha = shaOfKey(restored.matchedKey, baselineKeyPrefix(runnerOs, skill.name));
  return { mode: 'cache-only', report, hit: 'prefix', ...(sha ? { sha } : {}), base: skill };
}

/**
 * The plan for a fetched baseline (pure): settled as fetched, or the restored report judged against
 * the environment. Given what is known before the gates, it foresees the plan the gates' fuller
 * environment gives, but for drift only they can see (the roster, the answering model).
 */
export function judgeFetched(fetched: FetchedBaseline, current: CurrentEnvironment): BaselinePlan {
  return 'settled' in fetched ? fetched.settled : judgeBaseline({ ...fetched, current });
}

/** Saves a push's report as the skill's baseline for `sha`. A no-verdict report is never saved. */
export async function saveAsBaseline(opts: {
  report: Report;
  reportPath: string;
  sha: string;
  runnerOs: string;
  /** A drift run's refresh of the commit's baseline: its key's tag (system/baseline-cache.ts). */
  tag?: string;
}): Promise<BaselineSave> {
  if (opts.report.verdict !== 'ok') {
    return {
      saved: false,
      why: 'it has no verdict, and a report that is not a measurement is never a baseline',
    };
  }
  const result = await saveBaseline({
    skill: opts.report.skill,
    sha: opts.sha,
    os: opts.runnerOs,
    reportPath: opts.reportPath,
    ...(opts.tag === undefined ? {} : { tag: opts.tag }),
  });
  if (result.saved) return { saved: true, key: result.key };
  // An existing entry is a re-run of a commit already measured: the first report stays.
  return { saved: false, why: result.code === 'exists' ? `already cached as ${result.key}` : result.reason };
}
