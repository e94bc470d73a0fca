import type { Report } from '../schemas/report.js';
import type { ComparisonWarning } from './comparison.js';

/**
 * The competition changed between two reports (`run --siblings`, docs/matrix.md): a sibling added or
 * removed, a sibling whose listed text differs (by hash), or one report measured with siblings and
 * the other without. As for the roster, the numbers may differ for that reason alone.
 */
export function siblingSetWarnings(
  a: Pick<Report, 'siblings'>,
  b: Pick<Report, 'siblings'>,
  names: { base: string; cand: string },
): ComparisonWarning[] {
  if (a.siblings === undefined && b.siblings === undefined) return [];
  const before = new Map((a.siblings?.members ?? []).map((m) => [m.name, m.sha256]));
  const after = new Map((b.siblings?.members ?? []).map((m) => [m.name, m.sha256]));
  const added = [...after.keys()].filter((n) => !before.has(n));
  const removed = [...before.keys()].filter((n) => !after.has(n));
  const changed = [...after.entries()]
    .filter(([n, h]) => before.has(n) && before.get(n) !== h)
    .map(([n]) => n);
  const parts = [
    ...(added.length > 0 ? [`added ${added.join(', ')}`] : []),
    ...(removed.length > 0 ? [`removed ${removed.join(', ')}`] : []),
    ...(changed.length > 0 ? [`description changed: ${changed.join(', ')}`] : []),
  ];
  const out: ComparisonWarning[] = [];
  if (parts.length > 0) {
    out.push({
      code: 'siblings',
      message: `the competition changed (sibling skills) from ${names.base} to ${names.cand}: ${parts.join('; ')}`,
    });
  } else if ((a.siblings?.crossNegatives ?? false) !== (b.siblings?.crossNegatives ?? false)) {
    out.push({
      code: 'siblings',
      message: `cross-negatives differ: ${names.base} ${a.siblings?.crossNegatives ? 'with' : 'without'}, ${names.cand} ${b.siblings?.crossNegatives ? 'with' : 'without'}`,
    });
  }
  return out;
}
