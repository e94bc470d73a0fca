import { DEFAULT_AGENT } from '../agents/registry.js';
import type { EvalItem } from '../inputs/types.js';
import {
  MATRIX_SCHEMA_ID,
  MATRIX_SCHEMA_VERSION,
  type MatrixQuery,
  type MatrixReport,
  type MatrixSkill,
  matrixJsonSchemaUrl,
} from '../schemas/matrix.js';
import { sha256Hex } from '../schemas/privacy.js';
import { documentHead, type Environment, type Roster } from '../schemas/report.js';
import type { Shard } from './plan.js';
import { matrixErrorCauses, matrixRows, matrixVerdict, skillFigures, stolenQueries } from './tally.js';

/** A skill as the report records it: the listed text as bytes + SHA-256, its eval set's size and hash. */
export function describeMatrixSkill(
  name: string,
  listed: string,
  items: readonly EvalItem[] | null,
): MatrixSkill {
  return {
    name,
    description: { bytes: Buffer.byteLength(listed, 'utf8'), sha256: sha256Hex(listed) },
    evalSet:
      items === null
        ? null
        : {
            queries: items.length,
            positives: items.filter((i) => i.shouldTrigger).length,
            negatives: items.filter((i) => !i.shouldTrigger).length,
            sha256: sha256Hex(JSON.stringify(items.map((i) => [i.id, i.query, i.shouldTrigger]))),
          },
  };
}

/** What a matrix report says besides its queries: who measured, how, on what. */
export interface MatrixMeta {
  toolVersion: string;
  createdAt: Date;
  simulated: boolean;
  /** The agent whose CLI ran every run; absent: Claude Code (written only for another agent). */
  agent?: MatrixReport['agent'];
  cliVersion: string | null;
  requestedModel: string | null;
  reportedModels: Record<string, number>;
  roster: Roster | null;
  environment: Environment | null;
  settings: MatrixReport['settings'];
  conflictAllowed: boolean;
  shard: Shard | null;
  mergedLegs?: number;
  /** Every installed skill, sorted by name. */
  skills: MatrixSkill[];
  /** Runs the plan (or the legs' plans) held. */
  planned: number;
  aborted: boolean;
  interrupted: boolean;
}

/** The report from what was measured (pure: the caller supplies the clock). Rows, figures and verdict are derived here. */
export function buildMatrixReport(meta: MatrixMeta, queries: readonly MatrixQuery[]): MatrixReport {
  const names = meta.skills.map((s) => s.name);
  const { verdict, reasons } = matrixVerdict(queries, {
    planned: meta.planned,
    runsPerQuery: meta.settings.runsPerQuery,
    share: meta.settings.noVerdictShare,
    aborted: meta.aborted,
    interrupted: meta.interrupted,
  });
  const executed = queries.reduce((n, q) => n + q.runs.length, 0);
  const measured = queries.reduce((n, q) => n + q.measured, 0);
  return {
    ...documentHead(
      matrixJsonSchemaUrl(meta.toolVersion),
      MATRIX_SCHEMA_ID,
      MATRIX_SCHEMA_VERSION,
      meta.toolVersion,
      meta.createdAt,
    ),
    simulated: meta.simulated,
    ...(meta.agent === undefined || meta.agent === DEFAULT_AGENT ? {} : { agent: meta.agent }),
    cli: { version: meta.cliVersion },
    model: { requested: meta.requestedModel, reported: meta.reportedModels },
    roster: meta.roster,
    environment: meta.environment,
    settings: meta.settings,
    conflictAllowed: meta.conflictAllowed,
    shard: meta.shard,
    ...(meta.mergedLegs === undefined ? {} : { mergedLegs: meta.mergedLegs }),
    skills: meta.skills,
    verdict,
    noVerdictReasons: reasons,
    aborted: meta.aborted,
    interrupted: meta.interrupted,
    queries: [...queries],
    rows: matrixRows(names, queries),
    figures: skillFigures(names, queries),
    stolen: stolenQueries(queries),
    totals: {
      planned: meta.planned,
      executed,
      measured,
      timeouts: queries.reduce((n, q) => n + q.timeouts, 0),
      errors: queries.reduce((n, q) => n + q.errors, 0),
      errorCauses: matrixErrorCauses(queries),
    },
  };
}
