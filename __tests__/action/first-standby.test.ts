import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FetchedBaseline } from '../../src/action/baseline.js';
import { startActionStandby } from '../../src/action/first-standby.js';
import type { MeasureTarget } from '../../src/action/plan.js';
import { readSettings } from '../../src/action/settings.js';
import { claudeLoopRuntime, claudeWaitingSpec } from '../../src/agents/claude/runtime.js';
import type { WaitingSpec } from '../../src/agents/claude/waiting-run.js';
import type { AgentRunSettings, RunShape } from '../../src/agents/runs.js';
import { loopRuntimeOf } from '../../src/agents/runtime.js';
import { parseSkill } from '../../src/inputs/skill.js';

/**
 * What the Action's early start would start claude with: the spec its runtime is asked to start,
 * caught before any process is spawned; undefined when none is asked for.
 */
function actionStandbySpec(
  targets: readonly MeasureTarget[],
  settings: ReturnType<typeof readSettings>,
  claudeBin: string | undefined,
  foresee: { standby: number; firstBaseline?: FetchedBaseline | undefined },
): WaitingSpec | undefined {
  let asked: WaitingSpec | undefined;
  const claude = {
    ...claudeLoopRuntime(),
    startEarly: (...args: Parameters<typeof claudeWaitingSpec>) => {
      asked = claudeWaitingSpec(...args);
      return undefined;
    },
  };
  startActionStandby(
    targets,
    settings,
    claudeBin === undefined ? {} : { claude: { bin: claudeBin, source: 'path' } },
    {
      ...foresee,
      runtimes: (id) => (id === 'claude' ? claude : loopRuntimeOf(id)),
    },
  );
  return asked;
}

/**
 * What the Action's early standby is started with (src/action/first-standby.ts): the job's first
 * skill, its candidate side, the first run's model, the siblings it installs, the step's
 * environment for claude; nothing when the first run is not claude's. The bundled Action shows
 * it through the real claude in action.e2e.test.ts.
 */

function reader(values: Record<string, string>) {
  return (name: string) => values[name] ?? '';
}

function skill(name: string, description: string) {
  return parseSkill(`---\nname: ${name}\ndescription: ${description}\n---\n\nBody.\n`, {
    dir: `/repo/.claude/skills/${name}`,
    file: `/repo/.claude/skills/${name}/SKILL.md`,
  });
}

function target(
  name: string,
  description: string,
  siblings: MeasureTarget['siblings'] = [],
  baseDescription?: string,
): MeasureTarget {
  const head = skill(name, description);
  const base = baseDescription === undefined ? {} : { base: skill(name, baseDescription) };
  return {
    plan: { kind: 'measure', path: `.claude/skills/${name}/SKILL.md`, change: 'modified', head, ...base },
    evalSet: {
      file: 'evals.json',
      format: 'skill-creator-json',
      items: [{ id: 'q1', query: 'write the notes', shouldTrigger: true, extra: {} }],
    },
    siblings,
  };
}

const review = target('review', 'Review a diff for bugs. Use when asked to review changes.');
const handoff = target('handoff', 'Write HANDOFF.md so a fresh session can resume. Use when ending.', [
  {
    name: 'review',
    listed: 'Review a diff for bugs. Use when asked to review changes.',
    skill: review.plan.head,
  },
]);

let saved: NodeJS.ProcessEnv;
beforeEach(() => {
  saved = { ...process.env };
  process.env.GITHUB_TOKEN = 'ghs_withheld';
  process.env['INPUT_ANTHROPIC-API-KEY'] = 'sk-input';
});
afterEach(() => {
  process.env = saved;
});

describe('actionStandbySpec', () => {
  it('starts the first skill’s candidate side with its siblings, on the first model, as measureOne runs it', () => {
    const settings = readSettings(
      reader({ models: 'claude-haiku-4-5,claude-sonnet-4-5', 'anthropic-api-key': 'sk-test' }),
    );
    const spec = actionStandbySpec([handoff, review], settings, '/opt/claude', { standby: 1 });
    expect(spec?.claudeBin).toBe('/opt/claude');
    expect(spec?.model).toBe('claude-haiku-4-5');
    expect(spec?.stub).toMatchObject({
      layout: 'command',
      skillName: 'handoff',
      description: handoff.plan.head.emulatedListing,
      siblings: [
        { skillName: 'review', description: 'Review a diff for bugs. Use when asked to review changes.' },
      ],
    });
    // The step's environment as claude gets it: the key in, the runner's token and inputs out.
    expect(spec?.env.ANTHROPIC_API_KEY).toBe('sk-test');
    expect(spec?.env.GITHUB_TOKEN).toBeUndefined();
    expect(Object.keys(spec?.env ?? {}).filter((k) => k.startsWith('INPUT_'))).toEqual([]);
  });

  it('starts no claude without Claude Code, with Codex first, with nothing to measure, or with runs cold', () => {
    const claudeFirst = readSettings(reader({ agents: 'claude,codex', competition: 'isolated' }));
    expect(actionStandbySpec([review], claudeFirst, '/opt/claude', { standby: 1 })?.stub.skillName).toBe(
      'review',
    );
    const codexFirst = readSettings(reader({ agents: 'codex,claude', competition: 'isolated' }));
    expect(actionStandbySpec([review], codexFirst, '/opt/claude', { standby: 1 })).toBeUndefined();
    const settings = readSettings(reader({}));
    expect(actionStandbySpec([review], settings, undefined, { standby: 1 })).toBeUndefined();
    expect(actionStandbySpec([], settings, '/opt/claude', { standby: 1 })).toBeUndefined();
    expect(actionStandbySpec([review], settings, '/opt/claude', { standby: 0 })).toBeUndefined();
  });

  it('starts the base side when the first skill’s fetched baseline foresees it paired, else the candidate', () => {
    const settings = readSettings(reader({ competition: 'isolated' }));
    const changed = target('review', 'Review a diff for bugs and style.', [], 'Review a diff.');
    const paired: FetchedBaseline = {
      settled: { use: 'paired', baseline: { kind: 'paired', why: 'no cached baseline for the base commit' } },
    };
    const alone: FetchedBaseline = {
      settled: { use: 'none', baseline: { kind: 'none', why: 'the baseline input is none: measured alone' } },
    };
    const description = (firstBaseline?: FetchedBaseline) =>
      actionStandbySpec([changed], settings, '/opt/claude', { standby: 1, firstBaseline })?.stub.description;
    // A paired skill's base side runs first, so the waiting claude holds the base text.
    expect(description(paired)).toBe('Review a diff.');
    expect(description(alone)).toBe('Review a diff for bugs and style.');
    // Not a pull request: nothing fetched, the candidate.
    expect(description(undefined)).toBe('Review a diff for bugs and style.');
    // Foreseen paired, but a new skill has no base side: the candidate.
    const added = target('notes', 'Take notes.');
    expect(
      actionStandbySpec([added], settings, '/opt/claude', { standby: 1, firstBaseline: paired })?.stub
        .description,
    ).toBe('Take notes.');
  });

  it('starts Codex’s first run when Codex is the first agent, with its installed executable, and none when it is not installed', () => {
    const asked: Array<{ settings: Omit<AgentRunSettings, 'warm'>; first: RunShape }> = [];
    const codex = {
      ...loopRuntimeOf('codex'),
      startEarly: (settings: Omit<AgentRunSettings, 'warm'>, first: RunShape) => {
        asked.push({ settings, first });
        return undefined;
      },
    };
    const runtimes = (id: Parameters<typeof loopRuntimeOf>[0]) =>
      id === 'codex' ? codex : loopRuntimeOf(id);
    const codexFirst = readSettings(
      reader({ agents: 'codex,claude', competition: 'isolated', 'openai-api-key': 'sk-openai' }),
    );
    const both = {
      claude: { bin: '/opt/claude', source: 'path' as const },
      codex: { bin: '/opt/codex', source: 'path' as const },
    };
    startActionStandby([review], codexFirst, both, { standby: 1, runtimes });
    expect(asked).toHaveLength(1);
    expect(asked[0]?.settings.bin).toBe('/opt/codex');
    expect(asked[0]?.settings.stubs).toMatchObject({
      skillName: 'review',
      descriptions: [review.plan.head.description],
    });
    expect(asked[0]?.first.side).toBe(0);
    // Codex not installed (its cli gate will say why): nothing is started for it.
    startActionStandby([review], codexFirst, { claude: both.claude }, { standby: 1, runtimes });
    expect(asked).toHaveLength(1);
  });
});
