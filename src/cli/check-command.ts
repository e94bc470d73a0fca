import path from 'node:path';
import type { ListedText } from '../agents/listed.js';
import { DEFAULT_AGENT } from '../agents/registry.js';
import { listedTextProbe } from '../agents/runtime.js';
import { ExitCode, InputErrors, SkilltriggerError } from '../errors.js';
import { loadEvalSet, loadSkill } from '../inputs/files.js';
import { loadRoster } from '../inputs/roster.js';
import type { EvalSet, Skill } from '../inputs/types.js';
import { weakSetFindings } from '../inputs/weak-set.js';
import type { CheckArgs } from './args.js';
import type { CliIo } from './output.js';
import { rosterLines } from './roster-check.js';

/** The loader's warnings and the weak-set findings of an eval set, one line each; `run` shows them too. */
export function evalSetWarnings(file: string, set: EvalSet): string[] {
  return [
    ...(set.warnings ?? []).map((w) => `${file}: ${w}`),
    ...weakSetFindings(set).map((f) => `${file}: ${f.message}. Fix: ${f.fix} [${f.code}]`),
  ];
}

/** What `check` has found so far, counted as it prints each line. */
interface Tally {
  defects: number;
  warnings: number;
}

/** Prints each defect of `error` (one, or an InputErrors' several) as a `fail` line. */
function fail(io: CliIo, tally: Tally, error: unknown): void {
  const errors = error instanceof InputErrors ? error.errors : [error];
  for (const e of errors) {
    tally.defects++;
    io.stdout.write(`fail  ${e instanceof SkilltriggerError ? e.message : String(e)}\n`);
  }
}

/** Each skill folder loaded, or the input error that stopped it. */
async function loadSkills(
  dirs: readonly string[],
): Promise<Array<{ skill: Skill } | { error: SkilltriggerError }>> {
  const loaded: Array<{ skill: Skill } | { error: SkilltriggerError }> = [];
  for (const dir of dirs) {
    try {
      loaded.push({ skill: await loadSkill(dir) });
    } catch (error) {
      if (!(error instanceof SkilltriggerError)) throw error;
      loaded.push({ error });
    }
  }
  return loaded;
}

/** A loaded skill's lines: the unlisted defect, else its listing, its warnings and a white-space note. */
function checkSkill(io: CliIo, tally: Tally, skill: Skill, listed: ListedText): void {
  const unlisted = listedTextProbe(DEFAULT_AGENT).unlistedDefect(skill, listed);
  if (unlisted !== undefined) {
    fail(io, tally, unlisted);
    return;
  }
  const authored = skill.authoredListing ?? skill.description;
  const how =
    listed.source === 'probe'
      ? 'read from Claude Code'
      : `emulated, since the listing probe could not run: ${listed.why}`;
  io.stdout.write(
    `ok    ${skill.file}: skill "${skill.name}", description ${[...skill.description].length} characters; Claude Code lists ${[...listed.text].length} characters (${how})\n`,
  );
  const listingWarnings = new Set(skill.listingWarnings ?? []);
  const own = skill.warnings.filter((w) => !listingWarnings.has(w));
  for (const w of [...own, ...listed.warnings]) {
    tally.warnings++;
    io.stdout.write(`warn  ${skill.file}: ${w}\n`);
  }
  if (listed.warnings.length === 0 && listed.text !== authored) {
    io.stdout.write(
      `info  ${skill.file}: listed text differs from the frontmatter only in white space (${Buffer.byteLength(listed.text)} vs ${Buffer.byteLength(authored)} bytes): Claude Code turns line breaks and tabs into spaces; the listed text is measured\n`,
    );
  }
}

/** With `--roster`: how the agent lists each skill among the roster's crowd (src/cli/roster-check.ts). */
async function checkRoster(
  args: CheckArgs,
  io: CliIo,
  tally: Tally,
  skills: readonly Skill[],
  listedTexts: readonly ListedText[],
): Promise<void> {
  if (args.roster === undefined) return;
  const crowd = await loadRoster(args.roster);
  const agent = args.agent ?? crowd.agent ?? DEFAULT_AGENT;
  // Claude Code lists the text its probe read; every other agent the SKILL.md's description.
  const listed = skills.flatMap((skill, i) => {
    const text = agent === DEFAULT_AGENT ? listedTexts[i]?.text : skill.description;
    return text === undefined ? [] : [{ skill, listed: text }];
  });
  const lines = await rosterLines(agent, crowd, listed, {
    bin: args.bins[agent],
    env: io.env,
    ...(args.model ? { model: args.model } : {}),
  });
  for (const line of lines) {
    if (line.startsWith('warn')) tally.warnings++;
    io.stdout.write(`${line}\n`);
  }
}

/** An eval set's lines: its size, its warnings and weak-set findings, or its input error. */
async function checkEvalSet(io: CliIo, tally: Tally, file: string, skills: readonly Skill[]): Promise<void> {
  // An EVAL.yaml holds tests for many skills: take this skill's (the one --skill named, else
  // the folder the eval set sits in, which is the usual layout).
  const skillName =
    skills.length === 1 ? (skills[0]?.name ?? '') : path.basename(path.dirname(path.resolve(file)));
  try {
    const set = await loadEvalSet(file, skillName);
    const positives = set.items.filter((i) => i.shouldTrigger).length;
    io.stdout.write(
      `ok    ${file}: ${set.items.length} queries (${positives} positives, ${set.items.length - positives} negatives)\n`,
    );
    for (const w of evalSetWarnings(file, set)) {
      tally.warnings++;
      io.stdout.write(`warn  ${w}\n`);
    }
  } catch (error) {
    if (!(error instanceof SkilltriggerError)) throw error;
    fail(io, tally, error);
  }
}

/**
 * `skilltrigger check`: every input rule of `run` plus the weak-set findings (docs/design.md),
 * with no model call. Exit 1 when any input has a defect; weak-set findings are warnings.
 */
export async function checkCommand(args: CheckArgs, io: CliIo): Promise<ExitCode> {
  const tally: Tally = { defects: 0, warnings: 0 };
  const loaded = await loadSkills(args.skills);
  const skills = loaded.flatMap((l) => ('skill' in l ? [l.skill] : []));
  // What Claude Code lists, every skill in one start where that is exact (no model call: the probe
  // talks to a loopback fake), else the emulation.
  const listedTexts = await listedTextProbe(DEFAULT_AGENT).read(skills, {
    bin: args.bins[DEFAULT_AGENT],
    env: io.env,
  });
  for (const l of loaded) {
    if ('error' in l) fail(io, tally, l.error);
    else {
      const listed = listedTexts[skills.indexOf(l.skill)];
      if (listed !== undefined) checkSkill(io, tally, l.skill, listed);
    }
  }
  await checkRoster(args, io, tally, skills, listedTexts);
  for (const file of args.evals) await checkEvalSet(io, tally, file, skills);
  const { defects, warnings } = tally;
  io.stdout.write(
    `${defects === 0 ? 'clean' : 'problems'}: ${defects} defect${defects === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}\n`,
  );
  return defects === 0 ? ExitCode.verdict : ExitCode.input;
}
