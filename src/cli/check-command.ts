import path from 'node:path';
import { readListedTexts, unlistedDefect } from '../agents/claude/listed-text.js';
import { DEFAULT_AGENT } from '../agents/registry.js';
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

/**
 * `skilltrigger check`: every input rule of `run` plus the weak-set findings (docs/design.md),
 * with no model call. Exit 1 when any input has a defect; weak-set findings are warnings.
 */
export async function checkCommand(args: CheckArgs, io: CliIo): Promise<ExitCode> {
  let defects = 0;
  let warnings = 0;
  const report = (error: unknown): void => {
    const errors = error instanceof InputErrors ? error.errors : [error];
    for (const e of errors) {
      defects++;
      io.stdout.write(`fail  ${e instanceof SkilltriggerError ? e.message : String(e)}\n`);
    }
  };
  const loaded: Array<{ skill: Skill } | { error: SkilltriggerError }> = [];
  for (const dir of args.skills) {
    try {
      loaded.push({ skill: await loadSkill(dir) });
    } catch (error) {
      if (!(error instanceof SkilltriggerError)) throw error;
      loaded.push({ error });
    }
  }
  const skills = loaded.flatMap((l) => ('skill' in l ? [l.skill] : []));
  // What Claude Code lists, every skill in one start where that is exact (no model call: the probe
  // talks to a loopback fake), else the emulation.
  const listedTexts = await readListedTexts(skills, { bin: args.bins[DEFAULT_AGENT], env: io.env });
  for (const l of loaded) {
    if ('error' in l) {
      report(l.error);
      continue;
    }
    const { skill } = l;
    const listed = listedTexts[skills.indexOf(skill)];
    if (listed === undefined) continue;
    const unlisted = unlistedDefect(skill, listed);
    if (unlisted !== undefined) {
      report(unlisted);
      continue;
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
      warnings++;
      io.stdout.write(`warn  ${skill.file}: ${w}\n`);
    }
    if (listed.warnings.length === 0 && listed.text !== authored) {
      io.stdout.write(
        `info  ${skill.file}: listed text differs from the frontmatter only in white space (${Buffer.byteLength(listed.text)} vs ${Buffer.byteLength(authored)} bytes): Claude Code turns line breaks and tabs into spaces; the listed text is measured\n`,
      );
    }
  }
  if (args.roster !== undefined) {
    const crowd = await loadRoster(args.roster);
    const agent = args.agent ?? crowd.agent ?? DEFAULT_AGENT;
    // Claude Code lists the text its probe read; every other agent the SKILL.md's description.
    const listed = loaded.flatMap((l) => {
      if (!('skill' in l)) return [];
      const text = agent === DEFAULT_AGENT ? listedTexts[skills.indexOf(l.skill)]?.text : l.skill.description;
      return text === undefined ? [] : [{ skill: l.skill, listed: text }];
    });
    const lines = await rosterLines(agent, crowd, listed, {
      bin: args.bins[agent],
      env: io.env,
      ...(args.model ? { model: args.model } : {}),
    });
    for (const line of lines) {
      if (line.startsWith('warn')) warnings++;
      io.stdout.write(`${line}\n`);
    }
  }
  for (const file of args.evals) {
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
        warnings++;
        io.stdout.write(`warn  ${w}\n`);
      }
    } catch (error) {
      if (!(error instanceof SkilltriggerError)) throw error;
      report(error);
    }
  }
  io.stdout.write(
    `${defects === 0 ? 'clean' : 'problems'}: ${defects} defect${defects === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}\n`,
  );
  return defects === 0 ? ExitCode.verdict : ExitCode.input;
}
