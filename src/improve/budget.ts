import { fitsBudget } from '../cost/budget.js';
import { formatUsd } from '../cost/cost.js';
import type { Usage } from '../outcome.js';
import type { ImproveReport, SessionBudgetStop, SessionCost } from '../schemas/improve.js';
import type { Report } from '../schemas/report.js';

/**
 * What an improve session spends, and `--max-cost-usd` over the whole session (docs/cost.md): the
 * measured runs (each measurement gets what is left of the budget, and stops itself before a run
 * that could pass it) and the rewrite calls (checked here before each call). Pure bookkeeping.
 */

/** The session's budget, from the round trip's usage and the price table (src/cli/improve-cost.ts). */
export interface SessionBudget {
  maxUsd: number;
  /** A measured run's cost before any ran: the round trip's, the prompt cache cold. */
  firstRunUsd: number;
  /** A rewrite call's cost before any was made: the round trip's plus the prompt's and the answer's tokens. */
  rewriteUsd: number;
}

/** The budget a measurement gets: what is left, and what its first run is expected to cost. */
export interface MeasureBudget {
  maxUsd: number;
  firstEstimateUsd: number;
}

export class SessionSpend {
  private measuredUsd = 0;
  private rewriteUsd = 0;
  private rewriteCalls = 0;
  private dearestRewriteUsd = 0;
  /** Some run or call had no price: the session's cost is then not known, and not reported. */
  private unpriced = false;
  stop: SessionBudgetStop | undefined;

  constructor(
    private readonly budget: SessionBudget | undefined,
    /** What a rewrite call's usage cost; null when the model has no price. Absent: nothing is priced. */
    private readonly costOfUsage: ((usage: Usage) => number | null) | undefined,
  ) {}

  get spentUsd(): number {
    return this.measuredUsd + this.rewriteUsd;
  }

  /**
   * The budget for the next measurement, or undefined without `--max-cost-usd`. When even its
   * first run could pass the budget, the session stops here (`stop` is set) and `false` is returned.
   */
  beforeMeasure(phase: string): MeasureBudget | undefined | false {
    if (!this.budget) return undefined;
    const left = this.budget.maxUsd - this.spentUsd;
    if (left <= 0 || !fitsBudget(this.spentUsd, this.budget.firstRunUsd, this.budget.maxUsd)) {
      this.stopHere('run', phase, this.budget.firstRunUsd);
      return false;
    }
    return { maxUsd: left, firstEstimateUsd: this.budget.firstRunUsd };
  }

  /** Counts a measurement's cost; a measurement the budget stopped ends the session (`stop`). */
  afterMeasure(report: Report, phase: string): void {
    for (const m of [report.candidate, report.baseline]) {
      if (!m) continue;
      if (!m.cost || m.cost.unpricedRuns > 0) this.unpriced = true;
      this.measuredUsd += m.cost?.usd ?? 0;
    }
    const stopped = report.candidate.budgetStop ?? report.baseline?.budgetStop;
    if (stopped) this.stopHere('run', phase, stopped.nextEstimateUsd);
  }

  /** True when the next rewrite call fits; else the session stops here (`stop` is set). */
  beforeRewrite(phase: string): boolean {
    if (!this.budget) return true;
    const next = Math.max(this.budget.rewriteUsd, this.dearestRewriteUsd);
    if (fitsBudget(this.spentUsd, next, this.budget.maxUsd)) return true;
    this.stopHere('rewrite', phase, next);
    return false;
  }

  /** Counts a rewrite call: its usage priced, else (no usage, no price) the estimate, so the budget never under-counts. */
  afterRewrite(usage: Usage | undefined): void {
    const usd = usage && this.costOfUsage ? this.costOfUsage(usage) : null;
    if (usd === null) this.unpriced = true;
    const counted = usd ?? this.budget?.rewriteUsd ?? 0;
    this.rewriteCalls++;
    this.rewriteUsd += counted;
    this.dearestRewriteUsd = Math.max(this.dearestRewriteUsd, counted);
  }

  /** The report's `cost`: absent when some run or call had no price. */
  cost(): SessionCost | undefined {
    if (this.unpriced || !this.costOfUsage) return undefined;
    return {
      usd: this.spentUsd,
      measuredUsd: this.measuredUsd,
      rewriteUsd: this.rewriteUsd,
      rewriteCalls: this.rewriteCalls,
    };
  }

  private stopHere(before: SessionBudgetStop['before'], phase: string, nextEstimateUsd: number): void {
    if (!this.budget) return;
    this.stop ??= { spentUsd: this.spentUsd, nextEstimateUsd, maxUsd: this.budget.maxUsd, before, phase };
  }
}

/** The stop reason of a budget stop: opens with `budget:`, as a measured report's does. */
export function sessionBudgetReason(stop: SessionBudgetStop): string {
  const step = stop.before === 'run' ? 'a measured run' : 'a rewrite call';
  return `budget: stopped before ${step} (${stop.phase}) that could take the spend past --max-cost-usd ${formatUsd(stop.maxUsd)} (${formatUsd(stop.spentUsd)} spent, the next estimated at ${formatUsd(stop.nextEstimateUsd)}); what was measured is in the report`;
}

/** True when `--max-cost-usd` ended the session: no verdict, exit 3. */
export function isBudgetStopped(report: ImproveReport): boolean {
  return report.budgetStop !== undefined;
}
