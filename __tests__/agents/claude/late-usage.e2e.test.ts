import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claudeEnvironment, type RunSpec, runOnce } from '../../../src/agents/claude/run-once.js';
import { type Behaviour, type SimulatedModel, startSimulatedModel } from '../../../src/simulated/model.js';
import { CLAUDE_BIN, makeClaudeEnv } from '../../fakes/claude-env.js';

/**
 * The late load (`--late N`) and the usage a run records, through the real claude binary: a late
 * load is noted but never a hit, and the tokens recorded are the ones the simulated model sent
 * up to the decision (plus the watched turns with a late watch).
 */
const queryOf = (b: Behaviour) => `behaviour ${JSON.stringify(b)}`;

let model: SimulatedModel;
let claude: Awaited<ReturnType<typeof makeClaudeEnv>>;
let projectsRoot: string;

beforeAll(async () => {
  model = await startSimulatedModel({
    script: (req) => {
      const match = /^behaviour (.*?)(?: #\d+)?$/.exec(req.query);
      return match?.[1] ? (JSON.parse(match[1]) as Behaviour) : undefined;
    },
  });
  claude = await makeClaudeEnv(model);
  projectsRoot = await mkdtemp(path.join(tmpdir(), 'skilltrigger-e2e-late-'));
});

afterAll(async () => {
  await model.close();
  await claude.cleanup();
  await rm(projectsRoot, { recursive: true, force: true });
});

function spec(query: string, lateTurns = 0): RunSpec {
  return {
    query,
    stub: {
      layout: 'command',
      skillName: 'handoff',
      description: 'Summarise the session',
      root: projectsRoot,
    },
    timeoutMs: 20_000,
    claudeBin: CLAUDE_BIN,
    env: claudeEnvironment(claude.env, 0),
    lateTurns,
  };
}

/** The simulated model's answers to one query, in order. */
function answersTo(query: string) {
  return model.requests.filter((r) => r.view?.query === query && r.usage);
}

describe('--late N through the real claude binary', () => {
  it('a Bash-first run that loads the skill next turn is a miss with late: true', async () => {
    const query = `${queryOf({ kind: 'late-skill' })} #1`;
    const result = await runOnce(spec(query, 2));
    expect(result.outcome.kind).toBe('not-triggered');
    expect(result.late).toBe(true);
    // The model really did load it in turn 2: the watch saw what was sent.
    expect(
      answersTo(query)
        .map((r) => r.turn)
        .slice(0, 2),
    ).toEqual([1, 2]);
    expect(await readdir(projectsRoot)).toEqual([]);
  });

  it('the same run with --late 0 is the same miss, without the note', async () => {
    const result = await runOnce(spec(`${queryOf({ kind: 'late-skill' })} #2`, 0));
    expect(result.outcome.kind).toBe('not-triggered');
    expect(result.late).toBeUndefined();
  });

  it('a load after more turns than N is not seen', async () => {
    const result = await runOnce(spec(`${queryOf({ kind: 'late-skill', after: 3 })} #3`, 2));
    expect(result.outcome.kind).toBe('not-triggered');
    expect(result.late).toBeUndefined();
  });

  it('a plain text answer is a miss without late, and a hit stays a hit', async () => {
    const text = await runOnce(spec(`${queryOf({ kind: 'text' })} #4`, 2));
    expect(text.outcome.kind).toBe('not-triggered');
    expect(text.late).toBeUndefined();
    const hit = await runOnce(spec(`${queryOf({ kind: 'skill' })} #5`, 2));
    expect(hit.outcome.kind).toBe('triggered');
    expect(hit.late).toBeUndefined();
  });
});

describe('usage up to the decision', () => {
  it('a hit records the prompt the model was sent and message_start output count', async () => {
    const query = `${queryOf({ kind: 'skill' })} #6`;
    const result = await runOnce(spec(query));
    const [sent] = answersTo(query);
    expect(result.outcome.kind).toBe('triggered');
    expect(sent?.usage).toBeDefined();
    // Decided on the Skill call: the message_delta with the final output count came after it.
    expect(result.usage).toEqual({
      inputTokens: sent?.usage?.input,
      cacheReadInputTokens: sent?.usage?.cacheRead,
      cacheCreationInputTokens: sent?.usage?.cacheCreation,
      outputTokens: 1,
    });
    // The simulated prompt cache: the tools were seen before, so they are reads.
    expect(result.usage.cacheReadInputTokens).toBeGreaterThan(result.usage.inputTokens);
  });

  it('a watched miss adds the watched turns to what it records', async () => {
    const query = `${queryOf({ kind: 'late-skill' })} #7`;
    const result = await runOnce(spec(query, 2));
    // Turn 3 (after the skill ran) may have been asked for before the stop: it is not watched.
    const sent = answersTo(query).slice(0, 2);
    const input = sent.reduce((n, r) => n + (r.usage?.input ?? 0), 0);
    const cacheRead = sent.reduce((n, r) => n + (r.usage?.cacheRead ?? 0), 0);
    expect(result.usage.inputTokens).toBe(input);
    expect(result.usage.cacheReadInputTokens).toBe(cacheRead);
    // Turn 1 ended (its message_delta came before the next turn), turn 2 was cut at the Skill call.
    expect(result.usage.outputTokens).toBe((sent[0]?.usage?.output ?? 0) + 1);
  });
});
