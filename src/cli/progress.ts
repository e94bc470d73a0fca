import { describeOutcome } from '../measure/loop.js';
import type { RunProgress } from '../measure/loop-spec.js';
import type { Output } from './output.js';

/** The per-run line on stderr: `query 7/20 · run 2/2 · triggered · 1.4 s`. Pure, for tests. */
export function progressLine(p: RunProgress, queries: number, runsPerQuery: number, paired: boolean): string {
  const parts = [
    `query ${p.itemIndex + 1}/${queries}`,
    `run ${p.pass + 1}/${runsPerQuery}`,
    ...(paired ? [p.label] : []),
    // The agent is named wherever it is set: a Codex run, or either agent of several.
    ...(p.result.agent ? [p.result.agent] : []),
    ...(p.result.requestedModel ? [p.result.requestedModel] : []),
    // A run that started with a context says so (beside its fresh twin with --versus-fresh).
    ...(p.result.inContext ? ['with its context'] : []),
    describeOutcome(p.result.outcome),
    `${(p.result.durationMs / 1000).toFixed(1)} s`,
  ];
  return parts.join(' · ');
}

export function progressBar(done: number, planned: number, width = 30): string {
  const filled = planned === 0 ? width : Math.round((done / planned) * width);
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${done}/${planned}`;
}

/** Writes progress to a stream: one line per run (as `line` words it), plus a live bar when the stream is a terminal. */
export class LineProgress<P extends { done: number; planned: number }> {
  private barShown = false;

  constructor(
    private readonly out: Output,
    private readonly line: (p: P) => string,
  ) {}

  onRun = (p: P): void => {
    this.clearBar();
    this.out.write(`${this.line(p)}\n`);
    if (this.out.isTTY && p.done < p.planned) {
      this.out.write(progressBar(p.done, p.planned));
      this.barShown = true;
    }
  };

  clearBar(): void {
    if (this.barShown) {
      this.out.write('\r\x1b[2K');
      this.barShown = false;
    }
  }
}

/** run's progress: `query 7/20 · run 2/2 · triggered · 1.4 s`. */
export class ProgressReporter extends LineProgress<RunProgress> {
  constructor(out: Output, queries: number, runsPerQuery: number, paired: boolean) {
    super(out, (p) => progressLine(p, queries, runsPerQuery, paired));
  }
}
