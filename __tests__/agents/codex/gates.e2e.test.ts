/**
 * The Codex gates through the REAL `codex` (pinned, node_modules/.bin/codex) against the simulated
 * model's Responses API, reached as a user's gateway is (OPENAI_BASE_URL and a key in the
 * environment), with a throwaway HOME: the version, the key, the round trip, a same-named skill in
 * `~/.agents/skills`, a system skill's name, and the roster.
 */
import { mkdir, mkdtemp, readdir, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CodexGateSettings, codexGates } from '../../../src/agents/codex/gates.js';
import { CODEX_ROUND_TRIP_QUERY } from '../../../src/agents/codex/launch.js';
import { type SimulatedModel, startSimulatedModel } from '../../../src/simulated/model.js';

const CODEX_BIN = resolve('node_modules/.bin/codex');
const REFUSED_MODEL = 'gpt-refused';

let model: SimulatedModel;
let root = '';
let home = '';

beforeAll(async () => {
  model = await startSimulatedModel({
    chunkDelayMs: 0,
    script: (req) =>
      req.query === CODEX_ROUND_TRIP_QUERY && req.model === REFUSED_MODEL
        ? { kind: 'api-error', status: 401 }
        : undefined,
  });
  root = await realpath(await mkdtemp(join(tmpdir(), 'skilltrigger-codex-gates-')));
  home = join(root, 'home');
  await mkdir(home);
});

afterAll(async () => {
  await model?.close();
  if (root) await rm(root, { recursive: true, force: true });
});

function settings(extra: Partial<CodexGateSettings> = {}, env: NodeJS.ProcessEnv = {}): CodexGateSettings {
  return {
    codexBin: CODEX_BIN,
    env: {
      PATH: process.env.PATH,
      HOME: home,
      CODEX_API_KEY: 'sk-test-codex-gates',
      OPENAI_BASE_URL: `${model.url}/v1`,
      ...env,
    },
    model: 'gpt-sim',
    skillName: 'pdf',
    allowConflict: false,
    root,
    systemSkillsFolder: join(root, 'etc-codex-skills'),
    ...extra,
  };
}

const byGate = (gates: { gate: string; status: string }[]) =>
  Object.fromEntries(gates.map((g) => [g.gate, g.status]));

describe('the Codex gates through the real binary', () => {
  it('pass on a working setup: the version, the key, one round trip, no conflict, the system skills counted', async () => {
    const before = model.requests.length;
    const result = await codexGates(settings());
    expect(byGate(result.gates)).toEqual({
      cli: 'ok',
      auth: 'ok',
      'round-trip': 'ok',
      conflict: 'ok',
      roster: 'ok',
    });
    expect(result.gates.every((g) => g.agent === 'codex')).toBe(true);
    expect(result.version).toBe('0.169.0');
    expect(result.gates.find((g) => g.gate === 'auth')?.reason).toBe(
      `key from CODEX_API_KEY, for ${model.url}/v1`,
    );
    // The round trip is one real request to the provider, answered.
    const trips = model.requests.slice(before).filter((r) => r.view?.query === CODEX_ROUND_TRIP_QUERY);
    expect(trips).toHaveLength(1);
    expect(result.roundTripUsage?.outputTokens).toBeGreaterThan(0);
    expect(result.roster).toEqual({
      system: ['imagegen', 'openai-docs', 'skill-creator', 'skill-installer'],
      other: [],
    });
    expect(result.gates.find((g) => g.gate === 'roster')?.reason).toBe(
      '4 system skills and 0 other skills beside the stub; codex 0.169.0',
    );
    // Nothing left in the temp root but the throwaway HOME, which Codex never wrote to.
    expect(await readdir(root)).toEqual(['home']);
    expect(await readdir(home)).toEqual([]);
  });

  it('a missing binary fails the cli gate and skips the rest', async () => {
    const result = await codexGates(settings({ codexBin: join(root, 'no-such-codex') }));
    expect(byGate(result.gates)).toEqual({
      cli: 'fail',
      auth: 'skip',
      'round-trip': 'skip',
      conflict: 'skip',
      roster: 'skip',
    });
  });

  it('no key: the auth gate fails, saying a stored codex login does not reach the runs; no request is sent', async () => {
    const loggedIn = join(root, 'logged-in');
    await mkdir(join(loggedIn, '.codex'), { recursive: true });
    await writeFile(join(loggedIn, '.codex', 'auth.json'), '{}');
    try {
      const before = model.requests.filter((r) => r.view?.query === CODEX_ROUND_TRIP_QUERY).length;
      const result = await codexGates(settings({}, { CODEX_API_KEY: undefined, HOME: loggedIn }));
      const auth = result.gates.find((g) => g.gate === 'auth');
      expect(auth?.status).toBe('fail');
      expect(auth?.reason).toMatch(/throwaway CODEX_HOME/);
      expect(auth?.fix).toMatch(/export CODEX_API_KEY=/);
      expect(byGate(result.gates)['round-trip']).toBe('skip');
      expect(model.requests.filter((r) => r.view?.query === CODEX_ROUND_TRIP_QUERY)).toHaveLength(before);
    } finally {
      await rm(loggedIn, { recursive: true, force: true });
    }
  });

  it('a refused key fails the round trip as an auth error', async () => {
    const result = await codexGates(settings({ model: REFUSED_MODEL }));
    const trip = result.gates.find((g) => g.gate === 'round-trip');
    expect(trip?.status).toBe('fail');
    expect(trip?.reason).toBe(
      `codex exec failed against the provider (model ${REFUSED_MODEL}): auth (HTTP 401)`,
    );
  });

  it('a same-named skill in ~/.agents/skills fails the conflict gate and is counted in the roster; --allow-conflict warns', async () => {
    const skill = join(home, '.agents', 'skills', 'pdf');
    await mkdir(skill, { recursive: true });
    await writeFile(
      join(skill, 'SKILL.md'),
      '---\nname: pdf\ndescription: The user copy of the PDF skill\n---\n\nBody.\n',
    );
    try {
      const result = await codexGates(settings());
      const conflict = result.gates.find((g) => g.gate === 'conflict');
      expect(conflict?.status).toBe('fail');
      expect(conflict?.reason).toContain('~/.agents/skills/pdf');
      // Codex lists it in a measured run: the probe saw it beside the system skills.
      expect(result.roster?.other).toEqual(['pdf']);
      const allowed = await codexGates(settings({ allowConflict: true }));
      expect(allowed.gates.find((g) => g.gate === 'conflict')?.status).toBe('warn');
      expect(allowed.conflictAllowed).toBe(true);
    } finally {
      await rm(join(home, '.agents'), { recursive: true, force: true });
    }
  });

  it("a skill named like a system skill conflicts with it; the machine's skills folder is read too", async () => {
    const system = await codexGates(settings({ skillName: 'imagegen' }));
    expect(system.gates.find((g) => g.gate === 'conflict')?.reason).toMatch(
      /already lists a skill named "imagegen"/,
    );
    const etc = join(root, 'etc-codex-skills', 'docx');
    await mkdir(etc, { recursive: true });
    await writeFile(join(etc, 'SKILL.md'), '---\nname: docx\ndescription: Word files\n---\n');
    try {
      const found = await codexGates(settings({ skillName: 'docx' }));
      expect(found.gates.find((g) => g.gate === 'conflict')?.reason).toContain('etc-codex-skills/docx');
    } finally {
      await rm(join(root, 'etc-codex-skills'), { recursive: true, force: true });
    }
  });
});
