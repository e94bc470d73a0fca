import { readFile, realpath } from 'node:fs/promises';
import path from 'node:path';
import { replaceFile } from '../author/files.js';
import { DescriptionEditError, replaceDescription } from '../author/skill-file.js';
import { ExitCode, InputError, SkilltriggerError, UsageError } from '../errors.js';
import { loadSkill } from '../inputs/files.js';
import { parseSkill } from '../inputs/skill.js';
import { readPageSource } from '../report/files.js';
import type { ImproveReport } from '../schemas/improve.js';
import { sha256Hex } from '../schemas/privacy.js';
import type { CliIo } from './output.js';

/**
 * `skilltrigger improve --apply <improve-report.json> --skill <dir>`: puts a finished session's
 * winner into SKILL.md without a model call or a new measurement. Only when SKILL.md's description
 * still hashes to the session's original (an edit since would be overwritten by a text measured
 * against something else), and only the description's own lines change (author/skill-file.ts).
 */

/** The settings `improve --apply` reads: nothing else of improve's applies, as nothing is measured. */
export interface ImproveApplyArgs {
  command: 'improve-apply';
  /** The improve report (`<date>-<skill>-improve.json`). */
  report: string;
  skill: string;
}

/** The options `improve --apply` takes besides itself. */
const APPLY_OPTIONS = new Set(['apply', 'skill']);

/** Builds the settings from improve's parsed options; any measuring option with `--apply` is a usage error. */
export function improveApplyArgs(values: Record<string, string | true | undefined>): ImproveApplyArgs {
  const report = values.apply;
  if (typeof report !== 'string') throw new UsageError('--apply needs an improve report: --apply <file>');
  const others = Object.keys(values).filter((name) => !APPLY_OPTIONS.has(name));
  if (others.length > 0) {
    throw new UsageError(
      `--apply writes a finished session's winner and measures nothing, so it takes only --skill; got --${others.join(', --')}. Fix: skilltrigger improve --apply ${report} --skill <dir>`,
    );
  }
  const skill = values.skill;
  if (typeof skill !== 'string') {
    throw new UsageError(
      `improve --apply needs --skill <dir> (the folder holding the SKILL.md the session measured; the improve report holds no path). Fix: skilltrigger improve --apply ${report} --skill <dir>`,
    );
  }
  return { command: 'improve-apply', report, skill };
}

/** Why a session's report has nothing to apply, in the user's words; undefined when it has. */
function nothingToApply(r: ImproveReport): string | undefined {
  switch (r.final.recommendation) {
    case 'adopt':
      return r.final.winner === null || r.final.holdout === null
        ? 'records a recommendation to adopt but no winner with its holdout check (an incomplete report)'
        : undefined;
    case 'keep-original':
      return 'has no winner: no rewrite was a significant improvement on train, so the original stays';
    case 'did-not-generalise':
      return `has a winner on train that did not hold on the holdout (${r.final.holdout?.reason ?? 'no reason recorded'}), so the original stays`;
    case 'no-verdict':
      return r.interrupted
        ? 'has no verdict: a signal (Ctrl-C, SIGTERM, SIGHUP) interrupted the session before its winner was checked on the holdout'
        : 'has no verdict: --max-cost-usd stopped the session before its winner was checked on the holdout';
  }
}

const counts = (x: { hits: number; runs: number }) => `${x.hits}/${x.runs}`;
type Figures = ImproveReport['original']['train'];
const arrow = (a: Figures, b: Figures) =>
  `positives triggered ${counts(a.positives)} → ${counts(b.positives)} · negatives fired ${counts(a.negatives)} → ${counts(b.negatives)}`;

/** The evidence the winner stands on: each accepted paired comparison on train, then the holdout check. */
export function applyEvidence(r: ImproveReport): string[] {
  const accepted = r.candidates.filter((c) => c.decision === 'accepted' && c.train !== null);
  const lines = accepted.map(
    (c) =>
      `  train, iteration ${c.iteration} (paired against the incumbent, interleaved): ${c.train ? arrow(c.train.incumbent, c.train.candidate) : ''} · ${c.label ?? 'not judged'}${c.pValue === null ? '' : `, p = ${c.pValue.toPrecision(2)}`} (judged at α = ${r.settings.proposalAlpha})`,
  );
  const h = r.final.holdout;
  if (h) {
    lines.push(
      `  holdout (the winner paired against the original, on queries no rewrite saw): ${arrow(h.original, h.winner)} · ${h.label}: ${h.reason}`,
    );
  }
  return lines;
}

export async function improveApplyCommand(args: ImproveApplyArgs, io: CliIo): Promise<ExitCode> {
  const source = await readPageSource(args.report);
  if (source.kind !== 'improve') {
    throw new InputError(
      { file: args.report },
      `is a ${source.kind === 'matrix' ? 'matrix' : 'measurement'} report, not an improve report`,
      'pass the <date>-<skill>-improve.json that skilltrigger improve wrote',
    );
  }
  const r = source.report;
  const why = nothingToApply(r);
  const winner = r.final.winner;
  if (why !== undefined || winner === null) {
    throw new InputError(
      { file: args.report },
      `${why ?? 'has no winner'}; nothing to apply`,
      'run skilltrigger improve again (perhaps with more --iterations) for a winner to apply',
    );
  }
  const skill = await loadSkill(args.skill);
  if (skill.name !== r.skill) {
    throw new InputError(
      { file: skill.file },
      `is the skill "${skill.name}", but the improve report is of "${r.skill}"`,
      'pass the --skill folder the session measured',
    );
  }
  if (skill.description === winner.trim()) {
    io.stdout.write(`${skill.file} already holds the winner; nothing was written.\n`);
    return ExitCode.verdict;
  }
  const now = sha256Hex(skill.description);
  const original = sha256Hex(r.original.description);
  if (now !== original) {
    throw new InputError(
      { file: skill.file },
      `its description changed since the improve session (sha256 ${now.slice(0, 12)} now, ${original.slice(0, 12)} measured by the session of ${r.createdAt.slice(0, 10)}), so the winner was judged against another text; nothing was written`,
      'run skilltrigger improve again on the current description, or copy the winner from the improve report yourself',
    );
  }
  const before = await readFile(skill.file, 'utf8');
  const written = await writeDescription(skill.file, before, winner);
  if (r.simulated)
    io.stdout.write('SIMULATED: this evidence comes from the simulated model, not from a real model.\n');
  io.stdout.write(
    `${[
      `improve --apply: the winner of the session of ${r.createdAt.slice(0, 10)} (${path.basename(args.report)}), no model call`,
      `before: ${r.original.description}`,
      `after:  ${winner}`,
      'evidence:',
      ...applyEvidence(r),
      `wrote ${skill.file}${written === skill.file ? '' : ` (a link: written through to ${written}, which every link to it shares)`}: the description only; every other byte is as it was.`,
    ].join('\n')}\n`,
  );
  return ExitCode.verdict;
}

/**
 * Replaces the description in SKILL.md, and only it. The file must be what it was when `before`
 * was read (an edit meanwhile is never overwritten), and must read back to the winner. A SKILL.md
 * that is a symbolic link (or sits in a linked folder) is written through the link: the file it
 * points to gets the winner and the link stays a link, where a rename over the link's own name
 * would replace it with a regular file and leave the shared one with the old text. Returns the
 * file written (the link's target, or `file`).
 */
export async function writeDescription(file: string, before: string, winner: string): Promise<string> {
  const now = await readFile(file, 'utf8');
  if (now !== before) {
    throw new InputError(
      { file },
      'changed while improve ran, so it was not rewritten',
      'copy the winner from the improve report into the description yourself',
    );
  }
  let next: string;
  try {
    next = replaceDescription(now, winner);
  } catch (error) {
    if (!(error instanceof DescriptionEditError)) throw error;
    throw new InputError({ file }, error.message, 'copy the winner from the improve report yourself');
  }
  const reread = parseSkill(next, { file, dir: path.dirname(file) });
  if (reread.description !== winner.trim()) {
    throw new SkilltriggerError(
      `skilltrigger bug: the rewritten ${file} would not read back the winner; it was not written`,
      ExitCode.input,
    );
  }
  const target = await realpath(file);
  await replaceFile(target, next);
  return target === path.resolve(file) ? file : target;
}
