/**
 * The pass rule of one query (docs/design.md), alone in a leaf module: the verdict rules and the
 * sequential stop both read it, and neither may import the other.
 */

/** Pass/fail of one query against the threshold; null when nothing was measured. */
export function queryPasses(shouldTrigger: boolean, rate: number | null, threshold: number): boolean | null {
  if (rate === null) return null;
  return shouldTrigger ? rate > threshold : rate < threshold;
}
