import type { Comparison } from '../../compare/compare.js';
import { escapeInline } from '../../escape.js';
import type { ActionRun, SkillResult } from '../results/results.js';
import { COMMENT_MATRIX_LIMITS, routingMatrixSection } from './matrix-section.js';
import type { SectionLimits } from './query-table.js';
import { footer, runHead } from './run-blocks.js';
import { skillSection } from './skill-section.js';

/**
 * The sticky PR comment (pure): a headline, then a section per skill with its table. The hidden
 * marker and the sha stamp are added by the GitHub adapter, which also cuts anything over GitHub's
 * 65,536 characters; this renderer stays well below that on its own by shrinking sections first,
 * so the cut never lands in a table.
 */

export const COMMENT_LIMITS: SectionLimits = { queryRows: 30, queryChars: 100 };
/** Room left under GitHub's limit for the adapter's marker lines. */
export const COMMENT_BUDGET = 60_000;

function measuredFirst(skills: readonly SkillResult[]): SkillResult[] {
  const rank = (s: SkillResult) => (s.kind === 'measured' ? 0 : s.kind === 'invalid' ? 1 : 2);
  return [...skills].sort((a, b) => rank(a) - rank(b));
}

/** One skill's section, in full and without its per-query table, and the name that stands for it. */
export interface FittedSection {
  full: string;
  compact: string;
  name: string;
}

/**
 * The comment's or summary's body: the head, the skills' sections fitted into `budget`, the
 * routing matrix's section (when there is one) and the footer, each apart.
 */
export function assembleBody(
  parts: { head: string; sections: readonly FittedSection[]; matrix: string; foot: string },
  budget: number,
  whereRest: string,
): string {
  const { head, sections, matrix, foot } = parts;
  const body = fitSections(head.length + foot.length + matrix.length + 6, sections, budget, whereRest);
  return `${[head, ...body, ...(matrix === '' ? [] : [matrix]), foot].join('\n\n')}\n`;
}

/**
 * Fits sections into a budget: each in full while it fits, else without its per-query table, else
 * only named in a closing line.
 */
function fitSections(
  fixed: number,
  sections: readonly FittedSection[],
  budget: number,
  whereRest: string,
): string[] {
  const out: string[] = [];
  let used = fixed;
  const left: string[] = [];
  for (const section of sections) {
    if (left.length === 0 && used + section.full.length + 2 <= budget) {
      out.push(section.full);
      used += section.full.length + 2;
    } else if (left.length === 0 && used + section.compact.length + 2 <= budget) {
      out.push(section.compact);
      used += section.compact.length + 2;
    } else {
      left.push(section.name);
    }
  }
  if (left.length > 0) {
    out.push(
      `… and ${left.length} more skill${left.length === 1 ? '' : 's'} (${left.join(', ')}): ${whereRest}`,
    );
  }
  return out;
}

export function firstComparison(run: ActionRun): Comparison | undefined {
  return run.skills.flatMap((s) => (s.kind === 'measured' && s.comparison ? [s.comparison] : []))[0];
}

export function renderComment(run: ActionRun, toolVersion: string): string {
  const comparison = firstComparison(run);
  const head = runHead(run, '## skilltrigger: does Claude still load these skills?');
  const foot = footer(run, comparison, toolVersion);
  const sections = measuredFirst(run.skills).map((s) => ({
    full: skillSection(run, s, COMMENT_LIMITS).join('\n'),
    compact: skillSection(run, s, COMMENT_LIMITS, true).join('\n'),
    name: escapeInline(s.kind === 'measured' || s.kind === 'not-run' ? s.skill : (s.skill ?? s.file)),
  }));
  // routing-matrix: the repository's matrix after the skills (its rows of the changed skills at least).
  const matrix = routingMatrixSection(run, COMMENT_MATRIX_LIMITS).join('\n');
  return assembleBody({ head, sections, matrix, foot }, COMMENT_BUDGET, 'see the job summary');
}
