/** The improve demo's eval set: half of the holdout kept, each class alike (scripts/demo-holdout.js). */
export function halveHoldout<T extends { should_trigger: boolean; split?: string }>(items: readonly T[]): T[];
