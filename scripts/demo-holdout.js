/**
 * The improve demo's eval set (scripts/demo.js): the example's queries with half of the holdout
 * kept, each class alike (the 2nd, 4th, … held-out positive and negative), train untouched. Every
 * accept or reject is judged on train; the holdout only checks an accepted winner, and the
 * original's first runs on it decide nothing (docs/author-loop.md, "Offline"). Pure.
 *
 * @param {ReadonlyArray<{ should_trigger: boolean; split?: string }>} items the eval file's entries
 */
export function halveHoldout(items) {
  const seen = new Map();
  return items.filter((item) => {
    if (item.split !== 'holdout') return true;
    const n = (seen.get(item.should_trigger) ?? 0) + 1;
    seen.set(item.should_trigger, n);
    return n % 2 === 0;
  });
}
