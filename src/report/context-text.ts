/**
 * The context arms as the terminal and the reports say them (docs/context.md, "Arms"): one line
 * per arm with its own totals and pass count, and with `--versus-fresh` what the session costs.
 */
import { percentOf, points } from '../format.js';
import type { Measurement, ModelSummaryReport, SessionCost } from '../schemas/report.js';
import { CONTEXT_ARMS, type ContextArm } from './build/context-arms.js';

const ARM_NAME: Record<ContextArm, string> = { fresh: 'fresh', context: 'with a context' };

/** `fresh: positives triggered a/b · negatives fired c/d · 3/4 queries pass` per arm; none without both. */
export function contextArmLines(m: Measurement): string[] {
  const arms = m.byContext;
  if (!arms || CONTEXT_ARMS.some((arm) => arms[arm] === undefined)) return [];
  const lines = CONTEXT_ARMS.map((arm) => armLine(ARM_NAME[arm], arms[arm] as ModelSummaryReport));
  return m.sessionCost ? [...lines, sessionCostLine(m.sessionCost)] : lines;
}

function armLine(name: string, s: ModelSummaryReport): string {
  const t = s.totals;
  const passes = `${t.passed}/${t.queries} ${t.queries === 1 ? 'query passes' : 'queries pass'}`;
  const verdict = s.verdict === 'ok' ? '' : ' · no verdict';
  return `${name}: positives triggered ${t.positives.triggered}/${t.positives.runs} · negatives fired ${t.negatives.fired}/${t.negatives.runs} · ${passes}${verdict}`;
}

/**
 * `the session costs positives −25 pp [−48, −1] (fresh 16/20 80% → with its context 11/20 55%) ·
 * negatives +5 pp …, over 4 queries measured both ways`.
 */
export function sessionCostLine(c: SessionCost): string {
  const part = (name: string, d: SessionCost['positives']) => {
    const interval = d.interval === null ? '' : ` [${points(d.interval.lower)}, ${points(d.interval.upper)}]`;
    return `${name} ${points(d.deltaRate)}${interval} (fresh ${d.fresh.hits}/${d.fresh.runs} ${percentOf(d.fresh.hits, d.fresh.runs)} → with the context ${d.context.hits}/${d.context.runs} ${percentOf(d.context.hits, d.context.runs)})`;
  };
  return `the session costs ${part('positives', c.positives)} · ${part('negatives', c.negatives)}, over ${c.queries} ${c.queries === 1 ? 'query' : 'queries'} measured both ways`;
}
