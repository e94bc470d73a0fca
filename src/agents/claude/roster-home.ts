/**
 * `run --roster` on Claude Code (docs/roster.md, "`run --roster`"): the roster's crowd in a HOME of
 * the run's own, beside its temp project, with the stub among it where the skill itself would stand.
 * The crowd's user entries go to `~/.claude/skills` and `~/.claude/commands`, its project entries to
 * the run's project, each use record to `skillUsage` of the HOME's `.claude.json`; the stub is a
 * user skill in a folder of the skill's own folder name, so it sorts where the skill would and its
 * listed name is as wide (a `-stub-<8 hex>` suffix would take room from the budget the skill never
 * takes). An entry of that name is the skill itself: it is left out and the stub takes its use
 * record. The run's HOME is its own, so the name collides with nothing. The HOME goes with the run's temp folder; nothing of the user's HOME is read or
 * written, and the key comes from the environment.
 */
import { mkdir, realpath, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { GateError } from '../../errors.js';
import type { Crowd } from '../../inputs/roster.js';
import {
  createTempFolder,
  type HomePlacement,
  removeTempFolder,
  stubFileText,
} from '../process/stub-project.js';
import type { StubIdentity } from '../runs.js';
import { type CatalogueLayout, writeFiles } from './catalogue-probe.js';
import { crowdCatalogue } from './installed-catalogue.js';

/** The crowd as a run lists it: the layout without the skill's own entry, and that entry's use record. */
export interface RosterLayout {
  /** The skill's folder name: the stub's, in each run's HOME. */
  folder: string;
  layout: CatalogueLayout;
  /** The use record of the roster's entry of the skill's own folder name, which the stub takes. */
  ownUsage?: unknown;
}

/** The roster's crowd around the skill whose folder is `folder`. */
export function rosterLayout(crowd: Pick<Crowd, 'entries'>, folder: string): RosterLayout {
  const own = crowd.entries.find((e) => e.kind === 'skill' && e.name === folder);
  const rest = own === undefined ? crowd : { ...crowd, entries: crowd.entries.filter((e) => e !== own) };
  return { folder, layout: crowdCatalogue(rest), ...(own?.usage ? { ownUsage: own.usage } : {}) };
}

/** The `.claude.json` of a HOME holding the crowd and the stub named `stub`. */
export function rosterClaudeJson(roster: RosterLayout, stub: string): Record<string, unknown> | undefined {
  const usage = { ...((roster.layout.claudeJson?.skillUsage as Record<string, unknown>) ?? {}) };
  if (roster.ownUsage !== undefined) usage[stub] = roster.ownUsage;
  return Object.keys(usage).length === 0 ? undefined : { skillUsage: usage };
}

/** Writes the crowd's HOME (and its project entries into `project`); the stub goes in by `placeStub`. */
export async function writeRosterHome(roster: RosterLayout, home: string, project?: string): Promise<void> {
  const { layout } = roster;
  await mkdir(path.join(home, '.claude'), { recursive: true });
  await writeFiles(path.join(home, '.claude', 'skills'), layout.userSkills, true);
  await writeFiles(path.join(home, '.claude', 'commands'), layout.userCommands, false);
  if (project !== undefined) {
    await writeFiles(path.join(project, '.claude', 'skills'), layout.projectSkills, true);
    await writeFiles(path.join(project, '.claude', 'commands'), layout.projectCommands, false);
  }
}

/**
 * Where each run of a roster measurement puts its HOME: `<temp folder>/home` with the crowd, the
 * stub moved from the project into the HOME's skills, and the use records. One object per
 * measurement (a standby's spec must compare equal to its run's).
 */
export function rosterPlacement(roster: RosterLayout): HomePlacement {
  return {
    async place(base, stub, text) {
      const home = path.join(base, 'home');
      const name = roster.folder;
      await writeRosterHome(roster, home, stub.projectDir);
      const file = path.join(home, '.claude', 'skills', name, 'SKILL.md');
      // Recursive: an empty crowd (the clean room of `--versus-clean`) wrote no skills folder.
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, stubFileText('skill', name, text.description, text.whenToUse));
      // The project's own copy goes: the stub is listed once, from the HOME.
      await rm(stub.filePath);
      const json = rosterClaudeJson(roster, name);
      if (json) await writeFile(path.join(home, '.claude.json'), JSON.stringify(json));
      const real = await realpath(file);
      const placed: StubIdentity = {
        name,
        filePath: file,
        projectDir: stub.projectDir,
        ...(real === file ? {} : { aliases: [real] }),
      };
      return { home, stub: placed };
    },
  };
}

/** The variables that carry a key Claude Code uses with no login in its HOME. */
const KEY_VARIABLES = ['ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN'];

/** A roster measurement on Claude Code before its runs: the environment its gates and probes see. */
export interface ClaudeRosterRun {
  /** The user's environment with HOME a throwaway one holding the crowd (the gates and probes see it). */
  env: NodeJS.ProcessEnv;
  remove(): Promise<void>;
}

/**
 * Prepares a roster measurement on Claude Code: refuses (exit 2) without a key in the environment,
 * since a throwaway HOME holds no login and the user's credentials are never copied into one (a
 * token refreshed there could rotate the user's); else lays the crowd out in a throwaway HOME for
 * the gates and the probes; each run places its own HOME (`rosterPlacement`, from its runtime).
 */
export async function prepareClaudeRoster(
  crowd: Crowd,
  folder: string,
  env: NodeJS.ProcessEnv,
): Promise<ClaudeRosterRun> {
  if (!KEY_VARIABLES.some((name) => (env[name] ?? '') !== ''))
    throw new GateError(
      'roster: Claude Code runs among a roster in a HOME of their own, which holds no login, and skilltrigger never copies your credentials into one. Fix: export ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN) for this command, or measure without --roster',
    );
  const layout = rosterLayout(crowd, folder);
  const base = await createTempFolder();
  try {
    const home = path.join(base, 'home');
    await writeRosterHome(layout, home);
    const json = rosterClaudeJson(layout, folder);
    if (json) await writeFile(path.join(home, '.claude.json'), JSON.stringify(json));
    const { CLAUDE_CONFIG_DIR: _config, ...rest } = env;
    return {
      env: { ...rest, HOME: home },
      remove: () => removeTempFolder(base),
    };
  } catch (error) {
    await removeTempFolder(base);
    throw error;
  }
}
