import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type CapturedEntry,
  type CatalogueFile,
  type CatalogueLayout,
  probeCatalogue,
} from '../../../src/agents/claude/catalogue-probe.js';
import {
  CLAUDE_BUNDLED_SKILLS,
  type ClaudeCatalogueEntry,
  type ClaudeEntrySource,
  claudeListing,
  claudeListingBudget,
  claudeListingOrder,
  claudeUseScore,
  type SkillUsage,
} from '../../../src/agents/claude/listing-budget.js';
import { CLAUDE_BIN } from '../../fakes/claude-env.js';

/**
 * The listing rule of src/agents/claude/listing-budget.ts against the real 2.1.328
 * (docs/listing-budget.md): for each layout the catalogue probe reads the listing the CLI sent, and
 * the rule, given the same catalogue, must list every entry in the same state, whole, cut or bare,
 * and the listing at the same width.
 */
const MODEL = 'claude-sonnet-4-5';
const STUB = 'handoff-stub-ab12';
const STUB_TEXT =
  'Hand a task off to another engineer with a written summary of the state, risks and next steps.';
const NOW = Date.now();

let root: string;
let builtIns: CapturedEntry[];
beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'skilltrigger-budget-'));
  const base = await probeCatalogue({}, { claudeBin: CLAUDE_BIN, env: process.env, model: MODEL, root });
  if (base.kind !== 'listed') throw new Error(base.reason);
  builtIns = base.entries;
}, 120_000);
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

interface Skill {
  folder: string;
  text: string;
  source: ClaudeEntrySource;
}
const skill = (folder: string, text: string, source: ClaudeEntrySource = 'project-skill'): Skill => ({
  folder,
  text,
  source,
});
const fills = (prefix: string, count: number, chars: number, source?: ClaudeEntrySource): Skill[] =>
  Array.from({ length: count }, (_, i) =>
    skill(`${prefix}-${String(i + 1).padStart(2, '0')}`, 'x'.repeat(chars), source),
  );
const file = (s: Skill): CatalogueFile => ({
  name: s.folder,
  text: `---\ndescription: ${s.text}\n---\nbody\n`,
});

interface Case {
  skills: Skill[];
  usage?: Record<string, SkillUsage>;
  settings?: Record<string, unknown>;
  env?: Record<string, string>;
  budget?: number;
  cap?: number;
  nameOnly?: string[];
  /** What the case is about: the stub's state, as the CLI lists it. */
  stub: 'whole' | 'cut' | 'bare';
}

const stub = skill(STUB, STUB_TEXT);
const CASES: Record<string, Case> = {
  'two 900-character skills before the stub make it bare, and a shorter later entry still fits': {
    skills: [...fills('a-fill', 2, 900), stub],
    stub: 'bare',
  },
  'at 890 characters the stub stays whole': { skills: [...fills('a-fill', 2, 890), stub], stub: 'whole' },
  'user skills come first whatever their names': {
    skills: [...fills('z-fill', 2, 900, 'user-skill'), stub],
    stub: 'bare',
  },
  'a listing of width 8,000 fits (the line breaks of a bundled text count 0)': {
    skills: [skill('a-fill-01', 'x'.repeat(824)), skill('b-fill-01', 'x'.repeat(824)), stub],
    stub: 'whole',
  },
  'a listing of width 8,001 does not': {
    skills: [skill('a-fill-01', 'x'.repeat(824)), skill('b-fill-01', 'x'.repeat(825)), stub],
    stub: 'whole',
  },
  'the budget counts display width: 1,000 wide characters take 2,000': {
    skills: [skill('cjk-skill', '漢'.repeat(1000)), stub],
    stub: 'whole',
  },
  'a used entry ranks first': {
    skills: [...fills('a-fill', 2, 900), stub],
    usage: { [STUB]: { usageCount: 1, lastUsedAt: NOW } },
    stub: 'whole',
  },
  'the use score decays by half a week and stops at a tenth': {
    skills: [...fills('a-fill', 2, 900), stub],
    usage: {
      [STUB]: { usageCount: 1, lastUsedAt: NOW - 14 * 86_400_000 },
      'a-fill-02': { usageCount: 5, lastUsedAt: NOW - 70 * 86_400_000 },
    },
    stub: 'whole',
  },
  'a description past 1,536 characters is cut': {
    skills: [skill(STUB, `${STUB_TEXT} ${'y'.repeat(1600)}`)],
    stub: 'cut',
  },
  'skillListingMaxDescChars cuts every entry, the bundled ones too': {
    skills: [skill(STUB, `${STUB_TEXT} ${'y'.repeat(300)}`)],
    settings: { skillListingMaxDescChars: 200 },
    cap: 200,
    stub: 'cut',
  },
  'skillListingBudgetFraction 0.02 doubles the budget': {
    skills: [...fills('a-fill', 2, 900), stub],
    settings: { skillListingBudgetFraction: 0.02 },
    budget: claudeListingBudget({ contextWindow: 200_000, fraction: 0.02 }),
    stub: 'whole',
  },
  'SLASH_COMMAND_TOOL_CHAR_BUDGET replaces the budget, 0 does not': {
    skills: [...fills('a-fill', 2, 900), stub],
    env: { SLASH_COMMAND_TOOL_CHAR_BUDGET: '0' },
    stub: 'bare',
  },
  'a small SLASH_COMMAND_TOOL_CHAR_BUDGET makes every entry bare but the bundled': {
    skills: [stub],
    env: { SLASH_COMMAND_TOOL_CHAR_BUDGET: '1' },
    budget: 1,
    stub: 'bare',
  },
  'an entry skillOverrides lists as name-only is bare and costs only its name': {
    skills: [...fills('a-fill', 2, 900), stub],
    settings: { skillOverrides: { 'a-fill-01': 'name-only' } },
    nameOnly: ['a-fill-01'],
    stub: 'whole',
  },
};

function layoutOf(c: Case): CatalogueLayout {
  return {
    userSkills: c.skills.filter((s) => s.source === 'user-skill').map(file),
    projectSkills: c.skills.filter((s) => s.source === 'project-skill').map(file),
    ...(c.usage ? { claudeJson: { skillUsage: c.usage } } : {}),
    ...(c.settings ? { settings: c.settings } : {}),
    ...(c.env ? { env: c.env } : {}),
  };
}

function catalogueOf(c: Case): ClaudeCatalogueEntry[] {
  const own = claudeListingOrder(c.skills).map(
    (s): ClaudeCatalogueEntry => ({
      listedName: s.folder,
      text: s.text,
      score: claudeUseScore(c.usage?.[s.folder], Date.now()),
      ...(c.nameOnly?.includes(s.folder) ? { fixed: 'name-only' as const } : {}),
    }),
  );
  const shipped = builtIns.map(
    (e): ClaudeCatalogueEntry => ({
      listedName: e.name,
      text: e.text ?? '',
      score: 0,
      ...((CLAUDE_BUNDLED_SKILLS as readonly string[]).includes(e.name) ? { fixed: 'bundled' as const } : {}),
    }),
  );
  return [...own, ...shipped];
}

const lineWidth = (line: string): number => line.length - (line.match(/\n/g)?.length ?? 0);

describe('claudeListing against the real listing', () => {
  it.each(Object.entries(CASES))('%s', { timeout: 120_000 }, async (_, c) => {
    const sent = await probeCatalogue(layoutOf(c), {
      claudeBin: CLAUDE_BIN,
      env: process.env,
      model: MODEL,
      root,
    });
    if (sent.kind !== 'listed') throw new Error(sent.reason);
    const rule = claudeListing(
      catalogueOf(c),
      c.budget ?? claudeListingBudget({ contextWindow: 200_000 }),
      c.cap,
    );
    expect(rule.entries.map((e) => e.line)).toEqual(sent.entries.map((e) => e.line));
    const stubAt = sent.entries.findIndex((e) => e.name === STUB);
    expect(rule.entries[stubAt]?.state).toBe(c.stub);
    if (!c.skills.some((s) => /[^\x20-\x7e]/.test(s.text)))
      expect(rule.usedChars).toBe(
        sent.entries.reduce((sum, e) => sum + lineWidth(e.line), 0) + sent.entries.length - 1,
      );
  });
});
