import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runPreflight } from '../../src/preflight/preflight.js';
import { GATE_QUERY, type SimulatedModel, startSimulatedModel } from '../../src/simulated/model.js';
import { CLAUDE_BIN, makeClaudeEnv } from '../fakes/claude-env.js';

/** `--model a,b`: the round-trip gate asks every model, through the real claude binary. */
const BOGUS = 'bogus-model-x';

let model: SimulatedModel;
let claude: Awaited<ReturnType<typeof makeClaudeEnv>>;
let out: string;

beforeAll(async () => {
  model = await startSimulatedModel({
    script: (req) =>
      req.query === GATE_QUERY && req.model === BOGUS ? { kind: 'api-error', status: 400 } : undefined,
  });
  claude = await makeClaudeEnv(model);
  out = await mkdtemp(path.join(tmpdir(), 'skilltrigger-preflight-models-'));
});

afterAll(async () => {
  await model.close();
  await claude.cleanup();
  await rm(out, { recursive: true, force: true });
});

const preflight = (models: string[]) =>
  runPreflight({
    bins: { claude: CLAUDE_BIN },
    env: claude.env,
    maxRetries: 0,
    models,
    out,
    allowConflict: false,
  });

describe('the round trip of every model', () => {
  it('asks each model once and keeps each one’s tokens for the cost estimate', async () => {
    const before = model.requests.length;
    const result = await preflight(['claude-haiku-4-5', 'claude-sonnet-4-5']);
    result.release();
    expect(result.passed).toBe(true);
    const asked = model.requests
      .slice(before)
      .filter((r) => r.view?.query === GATE_QUERY)
      .map((r) => r.view?.model);
    expect(asked).toEqual(['claude-haiku-4-5', 'claude-sonnet-4-5']);
    const roundTrip = result.gates.find((g) => g.gate === 'round-trip');
    expect(roundTrip?.reason).toMatch(
      /^claude-haiku-4-5 answered pong in .* s; claude-sonnet-4-5 answered pong/,
    );
    expect(Object.keys(result.roundTripUsage ?? {})).toEqual(['claude-haiku-4-5', 'claude-sonnet-4-5']);
    expect(result.roundTripUsage?.['claude-haiku-4-5']?.inputTokens).toBeGreaterThan(0);
  });

  it('fails the gate, naming the model, when one of them is unknown', async () => {
    const result = await preflight(['claude-haiku-4-5', BOGUS]);
    result.release();
    expect(result.passed).toBe(false);
    const roundTrip = result.gates.find((g) => g.gate === 'round-trip');
    expect(roundTrip?.status).toBe('fail');
    expect(roundTrip?.reason).toContain(`the API does not know the model "${BOGUS}"`);
    expect(roundTrip?.reason).not.toContain('claude-haiku-4-5');
  });
});
