import { agentFacts } from '../agents/registry.js';
import { escapeInline } from '../escape.js';
import { percent } from '../format.js';
import type { ImproveReport } from '../schemas/improve.js';
import { sessionCostText } from './cost-text.js';
import { RECOMMENDATION_TEXT } from './recommendation.js';

/**
 * The improve report as Markdown, beside its JSON. Pure. Description texts are the author's own
 * and are shown (the notice at the top says so), escaped like every outside string.
 */

type Figures = ImproveReport['original']['train'];

function rate(hits: number, runs: number): string {
  return runs === 0 ? `${hits}/0` : `${hits}/${runs} (${percent(hits / runs)})`;
}

function figures(f: Figures): string {
  return `positives ${rate(f.positives.hits, f.positives.runs)} · negatives ${rate(f.negatives.hits, f.negatives.runs)}`;
}

function quoteBlock(text: string): string {
  return text
    .split('\n')
    .map((line) => `> ${escapeInline(line)}`)
    .join('\n');
}

export function renderImproveMarkdown(report: ImproveReport): string {
  const s = report.settings;
  const cost = sessionCostText(report);
  const lines: string[] = [
    `# skilltrigger improve: ${escapeInline(report.skill)}`,
    '',
    `**${report.notice}**`,
    '',
    ...(report.simulated
      ? ['**SIMULATED**: these numbers come from the simulated model, not from a real model.', '']
      : []),
    `Created ${report.createdAt} by skilltrigger ${escapeInline(report.tool.version)}${s.agent ? ` · agent ${agentFacts(s.agent).label}` : ''} · model ${escapeInline(s.model ?? 'default')} · runs ${s.runsMode === 'auto' ? `auto (at most ${s.runsPerQuery})` : s.runsPerQuery} per query · at most ${s.iterations} rewrites.`,
    `A candidate is accepted only when its paired train comparison with the incumbent is an improvement at α = ${Number(s.proposalAlpha.toPrecision(3))} (the session's ${s.sessionAlpha} over ${s.iterations} rewrites) with no regression in either class.`,
    `Queries: train ${report.queries.train.positives} positives + ${report.queries.train.negatives} negatives; holdout ${report.queries.holdout.positives} + ${report.queries.holdout.negatives} (never shown to the rewriter).`,
    '',
    '## Recommendation',
    '',
    RECOMMENDATION_TEXT[report.final.recommendation],
    '',
    ...(report.final.winner !== null ? ['Winner:', '', quoteBlock(report.final.winner), ''] : []),
    ...(report.final.holdout
      ? [
          `Holdout, measured paired: original ${figures(report.final.holdout.original)}; winner ${figures(report.final.holdout.winner)}; ${escapeInline(report.final.holdout.reason)}.`,
          '',
        ]
      : []),
    ...(report.final.written ? ['SKILL.md was updated with the winner (--write).', ''] : []),
    `Stopped: ${escapeInline(report.stopReason)}.`,
    '',
    ...(cost === null ? [] : [cost, '']),
    '## Original',
    '',
    quoteBlock(report.original.description),
    '',
    `Train: ${figures(report.original.train)}. Holdout: ${figures(report.original.holdout)}.`,
    '',
    '## Candidates',
    '',
  ];
  if (report.candidates.length === 0) lines.push('None.', '');
  for (const c of report.candidates) {
    lines.push(
      `### ${c.iteration}. ${c.decision}${c.pValue === null ? '' : ` (p = ${c.pValue.toPrecision(3)})`}`,
      '',
    );
    if (c.description !== null) lines.push(quoteBlock(c.description), '');
    if (c.train) {
      lines.push(
        `Train, paired: incumbent ${figures(c.train.incumbent)}; candidate ${figures(c.train.candidate)}.`,
        '',
      );
    }
    lines.push(`${escapeInline(c.reason)}.`, '');
  }
  return `${lines.join('\n').trimEnd()}\n`;
}
