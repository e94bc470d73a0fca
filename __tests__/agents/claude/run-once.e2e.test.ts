import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claudeEnvironment, type RunSpec, runOnce } from '../../../src/agents/claude/run-once.js';
import type { Outcome } from '../../../src/outcome.js';
import { type Behaviour, type SimulatedModel, startSimulatedModel } from '../../../src/simulated/model.js';
import { CLAUDE_BIN, makeClaudeEnv } from '../../fakes/claude-env.js';

/**
 * Every simulated behaviour through the REAL claude binary and the real run path (temp project,
 * spawn, decision, stop, cleanup). One run each; the queries name the behaviour.
 */
const CASES: Array<{ behaviour: Behaviour; expected: Outcome | Outcome['kind']; timeoutMs?: number }> = [
  { behaviour: { kind: 'skill' }, expected: 'triggered' },
  { behaviour: { kind: 'skill', leadingSlash: true }, expected: 'triggered' },
  { behaviour: { kind: 'read-stub' }, expected: 'triggered' },
  { behaviour: { kind: 'toolsearch-then-skill' }, expected: 'triggered' },
  { behaviour: { kind: 'bash-and-skill' }, expected: 'triggered' },
  { behaviour: { kind: 'text-then-skill' }, expected: 'triggered' },
  { behaviour: { kind: 'thinking-then-text' }, expected: 'not-triggered' },
  { behaviour: { kind: 'text' }, expected: 'not-triggered' },
  { behaviour: { kind: 'other-tool' }, expected: 'not-triggered' },
  { behaviour: { kind: 'other-skill' }, expected: 'not-triggered' },
  { behaviour: { kind: 'api-error', status: 400 }, expected: { kind: 'error', cause: 'model', status: 400 } },
  {
    behaviour: { kind: 'api-error', status: 401, noRetry: true },
    expected: { kind: 'error', cause: 'auth', status: 401 },
  },
  {
    behaviour: { kind: 'api-error', status: 429, noRetry: true },
    expected: { kind: 'error', cause: 'rate-limit', status: 429 },
  },
  {
    behaviour: { kind: 'api-error', status: 500, noRetry: true },
    expected: { kind: 'error', cause: 'api', status: 500 },
  },
  {
    behaviour: { kind: 'api-error', status: 529, noRetry: true },
    expected: { kind: 'error', cause: 'overloaded', status: 529 },
  },
  { behaviour: { kind: 'hang' }, expected: 'timeout', timeoutMs: 5000 },
  { behaviour: { kind: 'stall' }, expected: 'timeout', timeoutMs: 5000 },
];

const queryOf = (b: Behaviour) => `behaviour ${JSON.stringify(b)}`;

let model: SimulatedModel;
let claude: Awaited<ReturnType<typeof makeClaudeEnv>>;
let projectsRoot: string;

beforeAll(async () => {
  const byQuery = new Map(CASES.map((c) => [queryOf(c.behaviour), c.behaviour]));
  model = await startSimulatedModel({ script: (req) => byQuery.get(req.query) });
  claude = await makeClaudeEnv(model);
  projectsRoot = await mkdtemp(path.join(tmpdir(), 'skilltrigger-e2e-projects-'));
});

afterAll(async () => {
  await model.close();
  await claude.cleanup();
  await rm(projectsRoot, { recursive: true, force: true });
});

function spec(query: string, timeoutMs = 20_000): RunSpec {
  return {
    query,
    stub: {
      layout: 'command',
      skillName: 'handoff',
      description: 'Summarise the session into HANDOFF.md',
      root: projectsRoot,
    },
    timeoutMs,
    claudeBin: CLAUDE_BIN,
    env: claudeEnvironment(claude.env, 0),
  };
}

describe('one run through the real claude binary', () => {
  for (const c of CASES) {
    it(`${c.behaviour.kind}${'status' in c.behaviour ? ` ${c.behaviour.status}` : ''}${'leadingSlash' in c.behaviour ? ' (leading /)' : ''} → ${typeof c.expected === 'string' ? c.expected : `${c.expected.kind}:${'cause' in c.expected ? c.expected.cause : ''}`}`, async () => {
      const result = await runOnce(spec(queryOf(c.behaviour), c.timeoutMs));
      if (typeof c.expected === 'string') expect(result.outcome.kind).toBe(c.expected);
      else expect(result.outcome).toEqual(c.expected);
      expect(await readdir(projectsRoot)).toEqual([]);
      if (result.outcome.kind === 'triggered' || result.outcome.kind === 'not-triggered') {
        expect(result.model).toBe('claude-opus-5-5');
        expect(result.init?.cliVersion).toBe('2.1.328');
        expect(result.usage.inputTokens).toBeGreaterThan(0);
        // Stopped at the decision by SIGTERM: gone well before the KILL that follows at 2 s.
        expect(result.decisionToExitMs).toBeLessThan(1900);
      }
    });
  }

  it('the model sees exactly the description under test, as the stub', async () => {
    const description = 'Write "HANDOFF.md": state, next steps & open questions — then stop';
    const before = model.requests.length;
    const result = await runOnce({
      ...spec(queryOf({ kind: 'text' })),
      stub: { ...spec('').stub, description },
    });
    expect(result.outcome.kind).toBe('not-triggered');
    const seen = model.requests.slice(before).find((r) => r.view?.stub);
    expect(seen?.view?.stub?.description).toBe(description);
    expect(seen?.view?.stub?.name).toMatch(/^handoff-stub-[0-9a-f]{8}$/);
  });

  it('a query that starts with a dash is sent as text, not taken as a flag', async () => {
    const before = model.requests.length;
    const result = await runOnce(spec('--help me write a handoff'));
    expect(result.outcome.kind).toBe('not-triggered');
    expect(model.requests.slice(before).some((r) => r.view?.query === '--help me write a handoff')).toBe(
      true,
    );
  });

  it('a missing claude binary is an error, not a miss', async () => {
    const result = await runOnce({ ...spec('x'), claudeBin: path.join(projectsRoot, 'no-such-claude') });
    expect(result.outcome).toEqual({ kind: 'error', cause: 'cli-missing' });
    expect(await readdir(projectsRoot)).toEqual([]);
  });
});
