import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Report, reportSchema } from '../../src/schemas/report.js';
import { descriptionRule } from '../../src/simulated/description-script.js';
import { CLAUDE_BIN } from '../fakes/claude-env.js';
import { type CliWorld, runCli, startCliWorld } from '../fakes/cli.js';

/**
 * The simulated model follows the listing the real `claude` sends: the same description, listed
 * whole in a clean catalogue and bare under a budget too small for it, loads at the text rule's
 * rate for the description and at the bare rate of its name (text-rule.ts). The query's two words
 * are both in the description (0.95) and one is the name: bare, BARE_FACTOR × 0.95 = 0.475, where a
 * listing read as empty text would give the floor, 0.05.
 */
let world: CliWorld;
let skill: string;
let evalFile: string;
const QUERY = 'write the handoff';

beforeAll(async () => {
  world = await startCliWorld({ name: 'bare-rule-e2e', model: { script: descriptionRule() } });
  skill = path.dirname(
    await world.write(
      'skills/handoff/SKILL.md',
      '---\nname: handoff\ndescription: Write the handoff note a fresh agent resumes from.\n---\n\nBody.\n',
    ),
  );
  evalFile = await world.write(
    'evals.json',
    JSON.stringify([
      { query: QUERY, should_trigger: true },
      { query: 'bake sourdough bread', should_trigger: false },
    ]),
  );
});

afterAll(async () => {
  await world?.close();
});

async function measure(name: string, env: NodeJS.ProcessEnv): Promise<Report> {
  const out = path.join(world.work, name);
  const args = ['run', '--skill', skill, '--eval', evalFile, '--runs', '6', '--claude', CLAUDE_BIN];
  const r = await runCli([...args, '--model', 'claude-sonnet-4-5', '--out', out], { env });
  expect(r.code, r.stderr).toBe(0);
  const [json] = (await readdir(out)).filter((f) => f.endsWith('.json'));
  return reportSchema.parse(JSON.parse(await readFile(path.join(out, json ?? ''), 'utf8')));
}

const measured = (from: number) =>
  world.model.requests.slice(from).filter((r) => r.turn === 1 && r.view?.query === QUERY);

describe('the simulated model reads the listing state off the request', () => {
  it('loads a whole-listed stub at the rule rate and a bare-listed one at the rate of its name, halved', async () => {
    const before = world.model.requests.length;
    const whole = await measure('out-whole', world.claude.env);
    const wholeRequests = measured(before);
    expect(wholeRequests.map((r) => r.view?.stub?.description === '')).toEqual(Array(6).fill(false));
    expect(whole.candidate.listing?.claude?.stub.state).toBe('whole');
    expect(whole.candidate.queries[0]?.hits).toBeGreaterThanOrEqual(5);

    // A budget of 1 character: every entry but the bundled skills is listed as its name alone.
    const middle = world.model.requests.length;
    const bare = await measure('out-bare', { ...world.claude.env, SLASH_COMMAND_TOOL_CHAR_BUDGET: '1' });
    const bareRequests = measured(middle);
    expect(bareRequests.map((r) => r.view?.stub?.description)).toEqual(Array(6).fill(''));
    expect(bare.candidate.listing?.claude?.stub.state).toBe('bare');
    expect(bare.candidate.queries[0]?.hits).toBeGreaterThanOrEqual(1);
    expect(bare.candidate.queries[0]?.hits).toBeLessThanOrEqual(4);
  }, 300_000);
});
