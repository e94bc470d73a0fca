/**
 * Whether two reports' runs started with the same contexts (docs/context.md): `--context`, and
 * each shared query's own. A rate measured mid-session says little about one measured fresh, or
 * after another conversation, so a difference is warned about, by the contexts' summaries only.
 */
import type { Report } from '../schemas/report.js';
import type { ComparisonWarning } from './comparison.js';

type Summary = { sha256: string; turns: number; chars: number } | undefined;

function said(context: Summary): string {
  return context === undefined
    ? 'fresh'
    : `${context.turns} turns (${context.chars} characters, sha256 ${context.sha256.slice(0, 12)})`;
}

const same = (x: Summary, y: Summary): boolean => x?.sha256 === y?.sha256;

export function contextWarnings(
  a: Report,
  b: Report,
  names: { base: string; cand: string },
): ComparisonWarning[] {
  const out: ComparisonWarning[] = [];
  if (!same(a.settings.context, b.settings.context)) {
    out.push({
      code: 'context',
      message: `--context differs: ${names.base} ${said(a.settings.context)}, ${names.cand} ${said(b.settings.context)}; a rate measured after one conversation says little about another`,
    });
  }
  if ((a.settings.versusFresh === true) !== (b.settings.versusFresh === true)) {
    const which = (r: Report) => (r.settings.versusFresh ? 'fresh and with its context' : 'one way');
    out.push({
      code: 'context',
      message: `--versus-fresh differs: ${names.base} measured each query with a context ${which(a)}, ${names.cand} ${which(b)}; compare an arm with the same arm (byContext)`,
    });
  }
  const theirs = new Map(b.candidate.queries.map((q) => [q.id, q.context]));
  const differing = a.candidate.queries
    .filter((q) => theirs.has(q.id) && !same(q.context, theirs.get(q.id)))
    .map((q) => q.id);
  // Queries that only take `--context` differ already by the line above.
  const own = differing.filter((id) => {
    const mine = a.candidate.queries.find((q) => q.id === id)?.context;
    return !(same(mine, a.settings.context) && same(theirs.get(id), b.settings.context));
  });
  if (own.length > 0) {
    const shown = own.slice(0, 5).join(', ');
    out.push({
      code: 'context',
      message: `the context of ${own.length} shared ${own.length === 1 ? 'query differs' : 'queries differ'} (${shown}${own.length > 5 ? ', …' : ''}): their runs did not start from the same conversation`,
    });
  }
  return out;
}
