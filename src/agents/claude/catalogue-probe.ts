import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startSimulatedModel } from '../../simulated/model.js';
import { listingLinesOf } from '../../simulated/request.js';
import { initRepository } from '../../system/git.js';
import { createTempFolder, removeTempFolder } from '../process/stub-project.js';
import { runClaudeCommand } from './command.js';
import { probeArgs, probeEnvironment } from './launch.js';

/**
 * The catalogue probe: the whole skill listing one start of the real `claude -p` sends, for a
 * catalogue laid out in a throwaway HOME and a `git init`ed temp project (docs/listing-budget.md).
 * Like the listing probe it talks only to the loopback simulated model with a dummy key, so no
 * model is called; unlike it, it reads every entry of the listing, bare ones included, so the
 * budget's work can be seen and checked against the rule of `listing-budget.ts`.
 */

/** One file to lay out: a skill folder's SKILL.md, or a command file. */
export interface CatalogueFile {
  /** The skill folder's name, or the command file's stem. */
  name: string;
  text: string;
}

export interface CatalogueLayout {
  /** `~/.claude/skills/<name>/SKILL.md`. */
  userSkills?: readonly CatalogueFile[];
  /** `<project>/.claude/skills/<name>/SKILL.md`. */
  projectSkills?: readonly CatalogueFile[];
  /** `~/.claude/commands/<name>.md`. */
  userCommands?: readonly CatalogueFile[];
  /** `<project>/.claude/commands/<name>.md`. */
  projectCommands?: readonly CatalogueFile[];
  /** `~/.claude.json`, as an object (its `skillUsage` ranks the listing). */
  claudeJson?: Record<string, unknown>;
  /** `~/.claude/settings.json`, as an object (`skillListingBudgetFraction`, `skillListingMaxDescChars`). */
  settings?: Record<string, unknown>;
  /** Extra variables for the CLI (`SLASH_COMMAND_TOOL_CHAR_BUDGET`). */
  env?: Readonly<Record<string, string>>;
}

export interface CatalogueProbeOptions {
  claudeBin: string;
  /** The user's environment: only PATH, TMPDIR and the locale reach the probe's claude. */
  env: NodeJS.ProcessEnv;
  model?: string;
  /**
   * Run with `--debug`, so the CLI writes its budget line to `~/.claude/debug/` when the listing
   * overflows; the probe reads it back as `overBudget`.
   */
  debug?: boolean;
  timeoutMs?: number;
  /** Where the temp folder goes; default the OS temp dir. */
  root?: string;
}

/** One entry of the listing as sent: its whole line, its listed name, and its text (undefined when bare). */
export interface CapturedEntry {
  line: string;
  name: string;
  text: string | undefined;
}

export type CatalogueProbeResult =
  | { kind: 'listed'; entries: CapturedEntry[]; overBudget?: OverBudgetLine }
  | { kind: 'failed'; reason: string };

/** The CLI's own debug line when the listing overflows: `Skill listing over budget: N skills, H chars > B budget`. */
export interface OverBudgetLine {
  skills: number;
  chars: number;
  budget: number;
}

const OVER_BUDGET = /Skill listing over budget: (\d+) skills, (\d+) chars > (\d+) budget/;

async function readOverBudget(home: string): Promise<OverBudgetLine | undefined> {
  const dir = path.join(home, '.claude', 'debug');
  const files = await readdir(dir).catch(() => [] as string[]);
  for (const file of files) {
    const match = OVER_BUDGET.exec(await readFile(path.join(dir, file), 'utf8').catch(() => ''));
    if (match) return { skills: Number(match[1]), chars: Number(match[2]), budget: Number(match[3]) };
  }
  return undefined;
}

/** Writes each file as `<dir>/<name>/SKILL.md` (a skill) or `<dir>/<name>.md` (a command). */
export async function writeFiles(dir: string, files: readonly CatalogueFile[] | undefined, skill: boolean) {
  for (const file of files ?? []) {
    const target = skill ? path.join(dir, file.name, 'SKILL.md') : path.join(dir, `${file.name}.md`);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, file.text);
  }
}

/** Lays out the catalogue, starts the CLI once and reads every entry of its first request's listing. */
export async function probeCatalogue(
  layout: CatalogueLayout,
  options: CatalogueProbeOptions,
): Promise<CatalogueProbeResult> {
  const base = await createTempFolder(options.root ?? os.tmpdir());
  const model = await startSimulatedModel({ isStub: () => false, chunkDelayMs: 0, recordBodies: true });
  try {
    const home = path.join(base, 'home');
    const project = path.join(base, 'project');
    await mkdir(path.join(home, '.claude'), { recursive: true });
    await mkdir(project);
    await initRepository(project);
    await writeFiles(path.join(home, '.claude', 'skills'), layout.userSkills, true);
    await writeFiles(path.join(project, '.claude', 'skills'), layout.projectSkills, true);
    await writeFiles(path.join(home, '.claude', 'commands'), layout.userCommands, false);
    await writeFiles(path.join(project, '.claude', 'commands'), layout.projectCommands, false);
    if (layout.claudeJson)
      await writeFile(path.join(home, '.claude.json'), JSON.stringify(layout.claudeJson));
    if (layout.settings)
      await writeFile(path.join(home, '.claude', 'settings.json'), JSON.stringify(layout.settings));
    const env = { ...probeEnvironment(options.env, home, model.url), ...layout.env };
    const bin = options.claudeBin.includes('/') ? path.resolve(options.claudeBin) : options.claudeBin;
    const args = options.debug ? ['--debug', ...probeArgs(options.model)] : probeArgs(options.model);
    const command = await runClaudeCommand(bin, args, {
      env,
      cwd: project,
      timeoutMs: options.timeoutMs ?? 60_000,
    });
    const first = model.requests.find((r) => r.method === 'POST' && r.path === '/v1/messages' && r.body);
    if (first === undefined)
      return {
        kind: 'failed',
        reason: `claude exited with code ${command.exitCode ?? '?'} before sending a request`,
      };
    const entries = listingLinesOf(first.body);
    if (entries === undefined) return { kind: 'failed', reason: 'the request holds no skill listing' };
    const overBudget = options.debug ? await readOverBudget(home) : undefined;
    return overBudget ? { kind: 'listed', entries, overBudget } : { kind: 'listed', entries };
  } finally {
    await model.close();
    await removeTempFolder(base);
  }
}
