/**
 * The listing a measured claude run sends, read by a probe of the same environment
 * (docs/listing-budget.md, "The listing of a measured run"): the run's request goes to the model,
 * out of the harness's sight, so the catalogue probe lays out what the run has (the user's catalogue,
 * read by `installed-catalogue.ts`, and the side's stub and siblings as the run's project holds
 * them), starts the real CLI once against the loopback model with the run's model, and reads every
 * entry. Nothing is written to the user's HOME; no model is called.
 */
import { randomBytes } from 'node:crypto';
import type { ListingPicture, ListingProbe, ListingState } from '../listing.js';
import { type StubSpec, stubFileText } from '../process/stub-project.js';
import {
  type CapturedEntry,
  type CatalogueFile,
  type CatalogueLayout,
  type CatalogueProbeResult,
  probeCatalogue,
} from './catalogue-probe.js';
import { displayWidth } from './display-width.js';
import { BUDGET_VARIABLE } from './installed-catalogue.js';
import { CLAUDE_BUDGET_FRACTION, CLAUDE_ENTRY_CAP, claudeListingBudget } from './listing-budget.js';
import { type RosterLayout, rosterClaudeJson } from './roster-home.js';

/**
 * The budgets 2.1.328 printed for models whose listing fit (its debug line comes only when a
 * listing overflows), as window and bytes per token: `claude-opus-5-5` and the CLI's default
 * count 3 bytes a token of 1,000,000; the four below 4 of 200,000.
 */
const OBSERVED_WINDOWS: Record<string, { contextWindow: number; bytesPerToken: number }> = {
  '': { contextWindow: 1_000_000, bytesPerToken: 3 },
  'claude-opus-5-5': { contextWindow: 1_000_000, bytesPerToken: 3 },
  'claude-sonnet-4-5': { contextWindow: 200_000, bytesPerToken: 4 },
  'claude-sonnet-4-6': { contextWindow: 200_000, bytesPerToken: 4 },
  'claude-opus-4-5': { contextWindow: 200_000, bytesPerToken: 4 },
  'claude-haiku-4-5': { contextWindow: 200_000, bytesPerToken: 4 },
};

/** The budget when the CLI did not print it: the variable, else the window observed for the model. */
export function knownBudget(layout: CatalogueLayout, model: string | undefined): number | undefined {
  const override = layout.env?.[BUDGET_VARIABLE];
  const fraction = layout.settings?.skillListingBudgetFraction;
  const window = OBSERVED_WINDOWS[model ?? ''];
  const parsed = override === undefined ? Number.NaN : Number(override);
  if (!Number.isNaN(parsed) && parsed !== 0) return parsed;
  if (window === undefined) return undefined;
  return claudeListingBudget({
    ...window,
    fraction: typeof fraction === 'number' ? fraction : CLAUDE_BUDGET_FRACTION,
  });
}

/** The entry cap the settings give (`skillListingMaxDescChars`), else 2.1.328's 1,536. */
function capOf(layout: CatalogueLayout): number {
  const cap = layout.settings?.skillListingMaxDescChars;
  return typeof cap === 'number' && cap > 0 ? cap : CLAUDE_ENTRY_CAP;
}

/** An entry's state: bare without text, cut when its text is the cap's `…` ending, else whole. */
function stateOf(entry: CapturedEntry, cap: number): ListingState {
  if (entry.text === undefined) return 'bare';
  return entry.text.endsWith('\u2026') && Array.from(entry.text).length === cap ? 'cut' : 'whole';
}

/** The stub's file as a run's project holds it, under a name formed as the run's is. */
function stubFile(stub: StubSpec, name: string, description: string, whenToUse?: string): CatalogueFile {
  return { name, text: stubFileText(stub.layout, name, description, whenToUse) };
}

/** The listing of the probe, read as a picture: the stub's entry apart, every other entry by name. */
export function pictureOf(
  result: Extract<CatalogueProbeResult, { kind: 'listed' }>,
  stubName: string,
  stubText: string,
  layout: CatalogueLayout,
  model: string | undefined,
): ListingPicture | undefined {
  const cap = capOf(layout);
  const isStub = (e: CapturedEntry) => e.name === stubName || e.name.startsWith(`${stubName} (`);
  const stub = result.entries.find(isStub);
  if (stub === undefined) return undefined;
  const used =
    result.entries.reduce((sum, e) => sum + displayWidth(e.line), 0) + Math.max(0, result.entries.length - 1);
  const budget = result.overBudget?.budget ?? knownBudget(layout, model);
  const state = stateOf(stub, cap);
  return {
    unit: 'characters',
    ...(budget === undefined ? {} : { budget }),
    used,
    entries: result.entries.filter((e) => !isStub(e)).map((e) => ({ name: e.name, state: stateOf(e, cap) })),
    // A stub listed with less than its own text was cut by the settings' cap.
    stub: {
      state: stub.text !== undefined && state === 'whole' && stub.text !== stubText ? 'cut' : state,
      chars: stub.text === undefined ? 0 : Array.from(stub.text).length,
    },
  };
}

export interface RunListingOptions {
  claudeBin: string;
  /** The user's environment: the catalogue is read from its HOME, and only PATH and the locale reach the probe. */
  env: NodeJS.ProcessEnv;
  model?: string;
  /** The user's catalogue, read once for every side (`installedCatalogue`). */
  catalogue: CatalogueLayout;
  /**
   * `run --roster`: the roster's crowd, which replaces `catalogue`, with the stub a user skill among
   * it, as each run's own HOME holds it (roster-home.ts).
   */
  roster?: RosterLayout;
  root?: string;
}

/** A roster run's layout: the crowd, the stub a user skill among it, the siblings in the project. */
function rosterProbeLayout(
  roster: RosterLayout,
  stub: StubSpec,
  name: string,
  siblings: CatalogueFile[],
): CatalogueLayout {
  const { layout } = roster;
  const own = { name, text: stubFileText('skill', name, stub.description, stub.whenToUse) };
  const json = rosterClaudeJson(roster, name);
  const { claudeJson: _usage, ...rest } = layout;
  return {
    ...rest,
    userSkills: [...(layout.userSkills ?? []), own],
    ...(stub.layout === 'command'
      ? { projectCommands: [...(layout.projectCommands ?? []), ...siblings] }
      : { projectSkills: [...(layout.projectSkills ?? []), ...siblings] }),
    ...(json ? { claudeJson: json } : {}),
  };
}

/** What a run of this side lists, or why it could not be read. */
export async function probeRunListing(
  stub: StubSpec,
  options: RunListingOptions,
): Promise<{ kind: 'read'; picture: ListingPicture } | { kind: 'failed'; reason: string }> {
  const suffix = () => randomBytes(4).toString('hex');
  const nameOf = (skill: string) => (stub.layout === 'command' ? `${skill}-stub-${suffix()}` : skill);
  // A roster run's stub stands in the skill's own folder, in the run's own HOME (roster-home.ts).
  const name = options.roster?.folder ?? nameOf(stub.skillName);
  const files = [
    stubFile(stub, name, stub.description, stub.whenToUse),
    ...(stub.siblings ?? []).map((s) => stubFile(stub, nameOf(s.skillName), s.description, s.whenToUse)),
  ];
  const layout = options.roster
    ? rosterProbeLayout(options.roster, stub, name, files.slice(1))
    : {
        ...options.catalogue,
        ...(stub.layout === 'command'
          ? { projectCommands: [...(options.catalogue.projectCommands ?? []), ...files] }
          : { projectSkills: [...(options.catalogue.projectSkills ?? []), ...files] }),
      };
  const result = await probeCatalogue(layout, {
    claudeBin: options.claudeBin,
    env: options.env,
    debug: true,
    ...(options.model ? { model: options.model } : {}),
    ...(options.root ? { root: options.root } : {}),
  });
  if (result.kind === 'failed') return result;
  const listed = [stub.description, ...(stub.whenToUse ? [stub.whenToUse] : [])].join(' - ');
  const picture = pictureOf(result, name, listed, layout, options.model);
  return picture === undefined
    ? { kind: 'failed', reason: "the stub is not in Claude Code's listing" }
    : { kind: 'read', picture };
}

/**
 * How the skill itself would be listed among the same catalogue: its folder in `~/.claude/skills`
 * (where a user installs it, before every project entry and command in the listing order) holding
 * the side's text, the siblings as the run has them. The listing gate compares it with the stub's
 * state. Undefined when the probe could not read it.
 */
export async function probeRealSkillState(
  stub: StubSpec,
  folder: string,
  options: RunListingOptions,
): Promise<ListingState | undefined> {
  const own = { name: folder, text: stubFileText('skill', folder, stub.description, stub.whenToUse) };
  const siblings = (stub.siblings ?? []).map((s) =>
    stubFile(
      stub,
      stub.layout === 'command' ? `${s.skillName}-stub-${randomBytes(4).toString('hex')}` : s.skillName,
      s.description,
      s.whenToUse,
    ),
  );
  const layout: CatalogueLayout = {
    ...options.catalogue,
    userSkills: [...(options.catalogue.userSkills ?? []).filter((f) => f.name !== folder), own],
    ...(stub.layout === 'command'
      ? { projectCommands: [...(options.catalogue.projectCommands ?? []), ...siblings] }
      : { projectSkills: [...(options.catalogue.projectSkills ?? []), ...siblings] }),
  };
  const result = await probeCatalogue(layout, {
    claudeBin: options.claudeBin,
    env: options.env,
    ...(options.model ? { model: options.model } : {}),
    ...(options.root ? { root: options.root } : {}),
  });
  if (result.kind === 'failed') return undefined;
  const listed = [stub.description, ...(stub.whenToUse ? [stub.whenToUse] : [])].join(' - ');
  return pictureOf(result, folder, listed, layout, options.model)?.stub.state;
}

/**
 * One side's listing and, where the stub is not whole, how the skill itself (its folder `folder`)
 * would be listed among the same catalogue: what the listing gate compares.
 */
export async function probeSideListing(
  stub: StubSpec,
  folder: string,
  options: RunListingOptions,
): Promise<ListingProbe> {
  const got = await probeRunListing(stub, options);
  if (got.kind === 'read' && got.picture.stub.state !== 'whole') {
    const real = await probeRealSkillState(stub, folder, options);
    if (real !== undefined) got.picture.realSkill = real;
  }
  return got;
}
