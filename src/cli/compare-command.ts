import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { asAgentsReport, comparesByAgent } from '../compare/by-agent.js';
import {
  compareReportByModel,
  compareReportsByModel,
  hasSeveralModels,
  modelsOf,
} from '../compare/by-model.js';
import { compareReport, compareReports } from '../compare/compare.js';
import { comparisonJson, renderComparisonText } from '../compare/render.js';
import { modelsComparisonJson, modelsComparisonText } from '../compare/render-models.js';
import { ExitCode, UsageError } from '../errors.js';
import { readReportFile } from '../report/files.js';
import type { Report } from '../schemas/report.js';
import type { CompareArgs } from './args.js';
import type { CliIo } from './run-command.js';

/**
 * `skilltrigger compare a.json b.json` (a = baseline, b = candidate), or `compare paired.json` for
 * a report that holds both. Exit 0 when the comparison could be made, whatever its labels, unless
 * `--fail-on-regression` asks for 2 on a regression (as the Action's input of that name fails its
 * check). Nothing compared
 * is exit 1, whatever the cause (no query in common, no model in common): "noise" would be a lie.
 */
export async function compareCommand(args: CompareArgs, io: CliIo): Promise<ExitCode> {
  const readA = await readReportFile(args.a);
  const readB = args.b === undefined ? undefined : await readReportFile(args.b);
  // Several agents (`--agent a,b`) are compared agent by agent, as several models are model by model.
  const byAgent = comparesByAgent(readA, ...(readB ? [readB] : []));
  const a = byAgent ? asAgentsReport(readA) : readA;
  const b = readB && byAgent ? asAgentsReport(readB) : readB;
  const names = { base: path.basename(args.a), cand: path.basename(args.b ?? args.a) };
  if (b !== undefined && (await sameFile(args.a, args.b ?? args.a))) {
    // Still compared (an A/A check of the method is legitimate), but said first: it is rarely meant.
    io.stderr.write(
      `warning: both arguments are the same file (${names.base}): the report is compared with itself, so every label is noise by construction. Fix: pass the baseline's report first and the candidate's second\n`,
    );
  }
  if (readB !== undefined) refuseWithoutSharedAgent(readA, readB, names);
  const comparison = b === undefined ? compareReport(a) : compareReports(a, b, { names });
  if (b !== undefined && comparison.queries.shared === 0) {
    const q = comparison.queries;
    const skills =
      a.skill === b.skill ? `both of skill "${a.skill}"` : `of skills "${a.skill}" and "${b.skill}"`;
    throw new UsageError(
      `${names.base} and ${names.cand} have no query in common (${skills}; ${q.baseOnly} only in ${names.base}, ${q.candOnly} only in ${names.cand}${q.shouldTriggerChanged > 0 ? `, ${q.shouldTriggerChanged} with should_trigger changed` : ''}), so there is nothing to compare. Fix: compare two reports measured on the same eval set`,
    );
  }
  const simulated = a.simulated && (b ?? a).simulated;
  // Several models (`--model a,b`): each model the two sides share is compared on its own runs.
  if (hasSeveralModels(a, ...(b ? [b] : []))) {
    const byModel =
      b === undefined
        ? compareReportByModel(a)
        : compareReportsByModel(a, b, { names }, byAgent ? 'agent' : 'model');
    if (byModel.models.length === 0) {
      const list = (r: typeof a) => modelsOf(r).join(', ');
      throw new UsageError(
        byAgent
          ? `${names.base} and ${names.cand} have no agent in common (${names.base}: ${list(a)}; ${names.cand}: ${list(b ?? a)}), so there is nothing to compare: a rate on one agent says nothing about another. Fix: compare two reports that measured at least one agent in common (--agent)`
          : `${names.base} and ${names.cand} have no model in common (${names.base}: ${list(a)}; ${names.cand}: ${list(b ?? a)}), so there is nothing to compare. Fix: compare two reports that measured at least one model in common (--model)`,
      );
    }
    io.stdout.write(
      args.json
        ? `${modelsComparisonJson(byModel, { simulated })}\n`
        : modelsComparisonText(byModel, { simulated }),
    );
    return exitFor(
      args,
      byModel.models.map((m) => m.comparison.label),
    );
  }
  io.stdout.write(
    args.json
      ? `${comparisonJson(comparison, { simulated })}\n`
      : renderComparisonText(comparison, { simulated }),
  );
  return exitFor(args, [comparison.label]);
}

/** 0, or 2 under `--fail-on-regression` when any label compared is a regression. */
function exitFor(args: CompareArgs, labels: readonly string[]): ExitCode {
  return args.failOnRegression && labels.includes('regression') ? ExitCode.gate : ExitCode.verdict;
}

/**
 * Two reports that measured no agent in common (a Claude Code report and a Codex one): a rate on
 * one agent says nothing about another, so nothing is compared, as with no model in common.
 */
function refuseWithoutSharedAgent(a: Report, b: Report, names: { base: string; cand: string }): void {
  const agents = (r: Report) => r.agents.map((x) => x.name);
  if (agents(a).some((name) => agents(b).includes(name))) return;
  throw new UsageError(
    `${names.base} and ${names.cand} have no agent in common (${names.base}: ${agents(a).join(', ')}; ${names.cand}: ${agents(b).join(', ')}), so there is nothing to compare: a rate on one agent says nothing about another. Fix: compare two reports that measured at least one agent in common (--agent)`,
  );
}

/** Both arguments name one file (the same path, a link to it, or `./a.json` beside `a.json`). */
async function sameFile(a: string, b: string): Promise<boolean> {
  if (path.resolve(a) === path.resolve(b)) return true;
  try {
    return (await realpath(a)) === (await realpath(b));
  } catch {
    return false;
  }
}
