/**
 * The name a mistyped option or command most likely meant (`--run` → `--runs`, `improv` →
 * `improve`), for a "did you mean" in the error. Pure.
 */

/** Edits (insert, delete, replace, swap two neighbours) that turn `a` into `b`. */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number) => d[i]?.[j] ?? Number.POSITIVE_INFINITY;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const same = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + same);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, at(i - 2, j - 2) + 1);
      (d[i] as number[])[j] = best;
    }
  }
  return at(a.length, b.length);
}

/**
 * The candidate closest to `typed`: within 1 edit for a name of up to 4 letters, 2 beyond, else
 * the one candidate `typed` begins (at least 3 letters: `--baseline` is too short for two). A tie
 * goes to the first candidate listed. Undefined when nothing is near.
 */
export function closest(typed: string, candidates: readonly string[]): string | undefined {
  const limit = typed.length <= 4 ? 1 : 2;
  let best: { name: string; distance: number } | undefined;
  for (const name of candidates) {
    const distance = editDistance(typed, name);
    if (distance <= limit && (best === undefined || distance < best.distance)) best = { name, distance };
  }
  if (best) return best.name;
  const started = typed.length >= 3 ? candidates.filter((c) => c.startsWith(typed)) : [];
  return started.length === 1 ? started[0] : undefined;
}
