import { InputError } from '../../errors.js';
import { mergeMatrixLegs } from '../../matrix/merge.js';
import { shardText } from '../../matrix/shard.js';
import type { MatrixReport } from '../../schemas/matrix.js';
import type { RoutingMatrix } from './results.js';
import { restoreMatrix, type ShardResults } from './results-file.js';

/**
 * `mode: merge` for the routing matrix (pure): every leg's slice, as its results file holds it,
 * joined by `skilltrigger matrix --merge`'s own rule (src/matrix/merge.ts), which refuses legs
 * that measured other skills, descriptions, eval sets, settings, CLI or model. Legs of which some
 * hold a matrix and some do not cannot be merged either: `routing-matrix` differed between them.
 */

/** The merged matrix (still to be written), the legs' shared verdict on it, or why they cannot be merged. */
export type MatrixMerge =
  | { kind: 'none' }
  | { kind: 'merged'; report: MatrixReport }
  | { kind: 'kept'; matrix: RoutingMatrix & { kind: 'invalid' | 'not-run' } }
  | { kind: 'refused'; problems: string[] };

const legName = (s: ShardResults) => `${s.file} (shard ${shardText(s.results.shard)})`;

export function mergeLegMatrices(shards: readonly ShardResults[], createdAt: Date): MatrixMerge {
  const ordered = [...shards].sort((a, b) => a.results.shard.index - b.results.shard.index);
  const held = ordered.filter((s) => s.results.run.matrix !== undefined);
  if (held.length === 0) return { kind: 'none' };
  if (held.length < ordered.length) {
    const without = ordered.filter((s) => s.results.run.matrix === undefined);
    return {
      kind: 'refused',
      problems: [
        `the legs disagree on the routing matrix: ${held.map(legName).join(', ')} measured it, ${without.map(legName).join(', ')} did not; give every leg the same routing-matrix input`,
      ],
    };
  }
  const matrices = held.map((s) => {
    const m = s.results.run.matrix;
    if (m === undefined) throw new Error('skilltrigger bug: a leg lost its matrix');
    return { shard: s, matrix: restoreMatrix(m, s.dir) };
  });
  const invalid = matrices.flatMap((m) => (m.matrix.kind === 'invalid' ? m.matrix.problems : []));
  if (invalid.length > 0)
    return { kind: 'kept', matrix: { kind: 'invalid', problems: [...new Set(invalid)] } };
  const notRun = matrices.flatMap((m) =>
    m.matrix.kind === 'not-run' ? [`shard ${shardText(m.shard.results.shard)}: ${m.matrix.why}`] : [],
  );
  if (notRun.length > 0) return { kind: 'kept', matrix: { kind: 'not-run', why: notRun.join('; ') } };
  const legs = matrices.flatMap((m) =>
    m.matrix.kind === 'measured' ? [{ file: m.shard.file, report: m.matrix.report }] : [],
  );
  try {
    return { kind: 'merged', report: mergeMatrixLegs(legs, createdAt) };
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    const where = error.location.file;
    return {
      kind: 'refused',
      problems: [
        `the routing matrix's legs cannot be merged: ${where}: ${error.problem}. Fix: run every leg of the workflow matrix on the same commit with the same inputs (runs, timeout, model, routing-matrix)`,
      ],
    };
  }
}
