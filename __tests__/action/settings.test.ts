import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { AgentInputNames, InputDefaults, Inputs, Outputs } from '../../src/action/constants.js';
import { readSettings } from '../../src/action/settings.js';
import { AGENTS } from '../../src/agents/registry.js';
import { UsageError } from '../../src/errors.js';

const root = new URL('../../', import.meta.url);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function actionYml(): Record<string, unknown> {
  const parsed: unknown = parse(readFileSync(fileURLToPath(new URL('action.yml', root)), 'utf8'));
  if (!isRecord(parsed)) throw new Error('action.yml is not a mapping');
  return parsed;
}

/** `inputs` or `outputs`: name → its mapping. */
function section(name: string): Map<string, Record<string, unknown>> {
  const value = actionYml()[name];
  if (!isRecord(value)) throw new Error(`action.yml has no ${name}`);
  const out = new Map<string, Record<string, unknown>>();
  for (const [key, spec] of Object.entries(value)) {
    if (!isRecord(spec)) throw new Error(`action.yml ${name}.${key} is not a mapping`);
    out.set(key, spec);
  }
  return out;
}

const defaults: Record<string, string | undefined> = InputDefaults;

function reader(values: Record<string, string>) {
  return (name: string) => values[name] ?? '';
}

describe('action.yml and the constants module', () => {
  it('declare the same inputs, with the same defaults, each documented', () => {
    const inputs = section('inputs');
    expect([...inputs.keys()].sort()).toEqual([...Object.values(Inputs), ...AgentInputNames].sort());
    for (const [name, spec] of inputs) {
      expect(typeof spec.description, name).toBe('string');
      const declared = String(spec.default ?? '');
      if (declared.startsWith('${{')) continue; // evaluated by the runner (github-token)
      expect(declared, name).toBe(defaults[name] ?? '');
    }
  });

  it('declare the same outputs, each documented', () => {
    const outputs = section('outputs');
    expect([...outputs.keys()].sort()).toEqual(Object.values(Outputs).sort());
    for (const spec of outputs.values()) expect(typeof spec.description).toBe('string');
  });

  it('runs on node24 from the bundle', () => {
    expect(actionYml().runs).toEqual({ using: 'node24', main: 'dist/index.js' });
  });

  it('pins the CLI version the project tests with', () => {
    const pkg: unknown = JSON.parse(readFileSync(fileURLToPath(new URL('package.json', root)), 'utf8'));
    const dev = isRecord(pkg) ? pkg.devDependencies : undefined;
    const pinned = isRecord(dev) ? dev['@anthropic-ai/claude-code'] : undefined;
    expect(AGENTS.claude.pinnedVersion).toBe(pinned);
    expect(AGENTS.codex.pinnedVersion).toBe(isRecord(dev) ? dev['@openai/codex'] : undefined);
  });
});

describe('readSettings', () => {
  it('applies the defaults when nothing is given', () => {
    expect(readSettings(reader({}))).toEqual({
      install: {
        claude: { version: AGENTS.claude.pinnedVersion },
        codex: { version: AGENTS.codex.pinnedVersion },
        gemini: { version: AGENTS.gemini.pinnedVersion },
      },
      runs: 2,
      timeoutSeconds: 30,
      skills: ['**/SKILL.md'],
      skillsAll: false,
      evals: [],
      baseline: 'cache',
      failOnRegression: false,
      comment: true,
      allowConflict: false,
      allowPullRequestTarget: false,
      onFork: 'skip',
      out: 'skilltrigger-results',
      mode: 'measure',
      acceptDrift: false,
      resultsDir: 'skilltrigger-results',
      competition: 'siblings',
      crossNegatives: false,
      lateTurns: 0,
      versusFresh: false,
      routingMatrix: false,
    });
  });

  it('reads every input', () => {
    const settings = readSettings(
      reader({
        'anthropic-api-key': 'sk-x',
        'claude-code-version': '2.1.400',
        'claude-path': '/opt/claude',
        model: 'claude-sonnet-4-5',
        runs: '5',
        timeout: '45.5',
        skills: '.claude/skills/*/SKILL.md\n# comment\n!.claude/skills/wip/SKILL.md\n',
        'skills-all': 'True',
        evals: '{dir}/triggers.json',
        baseline: 'measure',
        'fail-on-regression': 'TRUE',
        comment: 'false',
        'allow-conflict': 'true',
        'allow-pull-request-target': 'true',
        'on-fork': 'fail',
        'github-token': 'ghs_x',
        out: 'results',
        shard: '2/3',
        mode: 'measure',
        'results-dir': 'shards',
        competition: 'isolated',
        'cross-negatives': 'true',
        context: '.github/mid-session.json',
        'versus-fresh': 'true',
        'routing-matrix': 'true',
      }),
    );
    expect(settings).toEqual({
      install: {
        claude: { version: '2.1.400', path: '/opt/claude', apiKey: 'sk-x' },
        codex: { version: AGENTS.codex.pinnedVersion },
        gemini: { version: AGENTS.gemini.pinnedVersion },
      },
      model: 'claude-sonnet-4-5',
      runs: 5,
      timeoutSeconds: 45.5,
      skills: ['.claude/skills/*/SKILL.md', '!.claude/skills/wip/SKILL.md'],
      skillsAll: true,
      evals: ['{dir}/triggers.json'],
      baseline: 'measure',
      failOnRegression: true,
      comment: false,
      allowConflict: true,
      allowPullRequestTarget: true,
      onFork: 'fail',
      githubToken: 'ghs_x',
      out: 'results',
      mode: 'measure',
      acceptDrift: false,
      shard: { index: 2, count: 3 },
      resultsDir: 'shards',
      competition: 'isolated',
      crossNegatives: true,
      lateTurns: 0,
      context: '.github/mid-session.json',
      versusFresh: true,
      routingMatrix: true,
    });
  });

  it('reads mode: drift and accept-drift', () => {
    expect(readSettings(reader({ mode: 'drift', 'accept-drift': 'true' }))).toMatchObject({
      mode: 'drift',
      acceptDrift: true,
    });
  });

  it.each([
    [{ 'accept-drift': 'true' }, 'input accept-drift: expected false unless mode is drift'],
    [{ mode: 'drift', shard: '1/2' }, 'input shard: expected empty with mode: drift'],
    [{ mode: 'drift', 'routing-matrix': 'true' }, 'input routing-matrix: mode: drift measures each skill'],
  ])('refuses %j, which a drift run cannot honour', (inputs, message) => {
    expect(() => readSettings(reader(inputs))).toThrow(message);
  });

  it('reads context-fill as the CLI reads --context-fill; empty is none', () => {
    expect(readSettings(reader({ 'context-fill': '20000' })).contextFill).toBe(20000);
    expect(readSettings(reader({})).contextFill).toBeUndefined();
    // An agent whose runs cannot start from a context is refused with it, naming the agent.
    expect(() => readSettings(reader({ 'context-fill': '20000', agents: 'claude,gemini' }))).toThrow(
      /^input context-fill: Gemini CLI cannot be measured with a context yet: .*Fix: /,
    );
  });

  it('reads context as a file inside the workspace and versus-fresh as a switch, as run --context and --versus-fresh', () => {
    const read = readSettings(reader({ context: '.github/contexts/mid.json', 'versus-fresh': 'true' }));
    expect(read.context).toBe('.github/contexts/mid.json');
    expect(read.versusFresh).toBe(true);
    expect(read.contextTurns).toBeUndefined();
    const none = readSettings(reader({}));
    expect(none.context).toBeUndefined();
    expect(none.versusFresh).toBe(false);
    for (const outside of ['/etc/ctx.json', '../ctx.json'])
      expect(() => readSettings(reader({ context: outside }))).toThrow(
        `input context: expected a context file relative to the workspace, such as .github/contexts/mid-session.json (no leading / and no ..), got ${JSON.stringify(outside)}`,
      );
    expect(() => readSettings(reader({ context: 'ctx.json', 'context-fill': '2000' }))).toThrow(
      'input context: context and context-fill both give every query its earlier turns. Fix: keep one of them, and leave the other empty',
    );
    expect(() => readSettings(reader({ context: 'ctx.json', agents: 'gemini' }))).toThrow(
      /^input context: Gemini CLI cannot be measured with a context yet: .*Fix: /,
    );
    expect(() => readSettings(reader({ 'versus-fresh': 'yes' }))).toThrow(
      'input versus-fresh: expected true or false, got "yes"',
    );
  });

  it('reads roster as a path inside the workspace, for the agents that place a crowd', () => {
    expect(readSettings(reader({ roster: '.github/crowd' })).roster).toBe('.github/crowd');
    expect(readSettings(reader({})).roster).toBeUndefined();
    for (const outside of ['/etc/crowd', '../crowd'])
      expect(() => readSettings(reader({ roster: outside }))).toThrow(
        `input roster: expected a roster file or a folder of skill folders relative to the workspace, such as .github/skilltrigger/crowd (no leading / and no ..), got ${JSON.stringify(outside)}`,
      );
    expect(() => readSettings(reader({ roster: 'crowd', agents: 'claude,gemini' }))).toThrow(
      'input roster: Gemini CLI cannot be measured among a roster: only Claude Code and Codex place one. Fix: leave roster empty, or set agents to claude,codex',
    );
  });

  it('refuses a shard with mode: merge (the merge step gathers every shard)', () => {
    expect(() => readSettings(reader({ shard: '1/2', mode: 'merge' }))).toThrow(
      'input shard: expected empty with mode: merge',
    );
  });

  it.each([
    ['runs', '0', 'input runs: expected a whole number from 1 to 100, got "0"'],
    ['runs', 'two', 'input runs: expected a whole number from 1 to 100, got "two"'],
    ['timeout', '-1', 'input timeout: expected a number of seconds from 5 to 3600, got "-1"'],
    ['baseline', 'always', 'input baseline: expected cache, cache-only, measure or none, got "always"'],
    ['fail-on-regression', 'yes', 'input fail-on-regression: expected true or false, got "yes"'],
    ['claude-code-version', 'latest', 'input claude-code-version: expected an exact version such as 2.1.328'],
    ['claude-code-version', '^2.1.0', 'input claude-code-version: expected an exact version'],
    ['model', 'claude sonnet', 'input model: expected a model name without spaces'],
    ['skills', '!**/SKILL.md', 'input skills: expected at least one glob'],
    ['skills', '../other/SKILL.md', 'input skills: expected globs relative to the repository root'],
    ['evals', '/etc/evals.json', 'input evals: expected paths relative to the repository root'],
    ['shard', '4/3', 'input shard: expected i/n with 1 ≤ i ≤ n ≤ 64, such as 2/3'],
    ['shard', '1/65', 'input shard: expected i/n with 1 ≤ i ≤ n ≤ 64'],
    ['mode', 'gather', 'input mode: expected measure, merge or drift, got "gather"'],
    ['accept-drift', 'yes', 'input accept-drift: expected true or false, got "yes"'],
    ['competition', 'rivals', 'input competition: expected siblings or isolated, got "rivals"'],
    ['on-fork', 'neutral', 'input on-fork: expected skip or fail, got "neutral"'],
    ['cross-negatives', 'on', 'input cross-negatives: expected true or false, got "on"'],
    ['results-dir', '../elsewhere', 'input results-dir: expected a folder inside the workspace'],
    [
      'context-fill',
      '100',
      'input context-fill: expected a whole number of characters from 500 to 1000000 (of the shipped conversation before each query) (or empty, for none), got "100"',
    ],
  ])('refuses %s = %j, naming the input and what it accepts', (name, value, message) => {
    let error: unknown;
    try {
      readSettings(reader({ [name]: value }));
    } catch (e) {
      error = e;
    }
    if (!(error instanceof UsageError)) throw new Error(`expected a UsageError, got ${String(error)}`);
    expect(error.message).toContain(message);
    expect(error.exitCode).toBe(1);
  });
});
