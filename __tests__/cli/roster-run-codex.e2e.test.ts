import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Report, reportSchema } from '../../src/schemas/report.js';
import { type CliWorld, runCli, startCliWorld } from '../fakes/cli.js';
import { writeCodexRoster } from '../fakes/roster-file.js';

/**
 * `run --agent codex --roster`, through the real `codex` against the simulated model's Responses
 * API: each run lays the roster's skills out in a HOME of its own (`~/.agents/skills`), and the
 * stub's state is read from each run's own request. 600 skills of 100 characters leave no room for
 * any description (bare), five leave the stub whole, and a description over Codex's cap of 1,024
 * characters is cut. One run per query, one query.
 */
const CODEX_BIN = path.resolve('node_modules/.bin/codex');
let world: CliWorld;
let evalFile: string;

beforeAll(async () => {
  world = await startCliWorld({
    name: 'roster-codex-e2e',
    model: {
      script: (view) => (view.query.startsWith('hit') ? { kind: 'skill' } : { kind: 'text' }),
      isStub: (e) => /^handoff-stub-[0-9a-f]{8}$/.test(e.name),
    },
  });
  evalFile = await world.write(
    'evals.json',
    JSON.stringify([
      { query: 'hit: write the handoff note now', should_trigger: true },
      { query: 'what does this regex match', should_trigger: false },
    ]),
  );
});

afterAll(async () => {
  await world?.close();
});

const roster = (name: string, count: number, chars: number) =>
  writeCodexRoster(path.join(world.work, `${name}.json`), count, chars);

async function codexRun(name: string, description: string, rosterFile: string) {
  const skill = path.dirname(
    await world.write(
      `${name}/handoff/SKILL.md`,
      `---\nname: handoff\ndescription: ${description}\n---\n\nBody.\n`,
    ),
  );
  const out = path.join(world.work, `out-${name}`);
  const env = {
    ...world.claude.env,
    OPENAI_BASE_URL: `${world.model.url}/v1`,
    OPENAI_API_KEY: 'sk-test-codex',
  };
  const args = ['run', '--agent', 'codex', '--codex', CODEX_BIN, '--runs', '1', '--skill', skill];
  const r = await runCli([...args, '--eval', evalFile, '--roster', rosterFile, '--out', out], { env });
  expect(r.code, r.stderr).toBe(0);
  const [json] = (await readdir(out)).filter((f) => f.endsWith('.json'));
  return reportSchema.parse(JSON.parse(await readFile(path.join(out, json ?? ''), 'utf8'))) as Report;
}

describe('run --roster on Codex', () => {
  it('lists the stub bare when the crowd leaves no room, from each run request', async () => {
    const report = await codexRun(
      'bare',
      'Write HANDOFF.md for the next session',
      await roster('big', 600, 100),
    );
    const listing = report.candidate.listing?.codex;
    expect(listing?.stub.state).toBe('bare');
    expect(listing?.runs).toEqual({ whole: 0, cut: 0, bare: 2, fromRequest: 2 });
    expect(report.settings.roster).toMatchObject({ from: 'file', skills: 600, commands: 0 });
  }, 300_000);

  it('lists it whole among five', async () => {
    const report = await codexRun(
      'whole',
      'Write HANDOFF.md for the next session',
      await roster('small', 5, 100),
    );
    expect(report.candidate.listing?.codex?.stub.state).toBe('whole');
    expect(report.candidate.listing?.codex?.runs.whole).toBe(2);
  }, 300_000);

  it("cuts a description over Codex's cap", async () => {
    const long = `Write HANDOFF.md ${'for the next session '.repeat(60).trim()}`;
    const report = await codexRun('cut', long, await roster('few', 5, 100));
    expect(report.candidate.listing?.codex?.stub.state).toBe('cut');
    expect(report.candidate.listing?.codex?.runs.cut).toBe(2);
  }, 300_000);
});
