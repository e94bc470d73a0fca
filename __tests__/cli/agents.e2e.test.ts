import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORT_SCHEMA_VERSION, reportSchema } from '../../src/schemas/report.js';
import type { Script } from '../../src/simulated/model.js';
import { byQueryPrefix, type CliWorld, CODEX_BIN, runCli, startCliWorld } from '../fakes/cli.js';
import { parseJunit } from '../fakes/junit-shape.js';

/**
 * `run --agent`: Codex measured through the real `codex` (and, beside it, the real `claude`) against
 * the simulated model, which answers Codex's Responses API on the same port as claude's Messages
 * API; one report holding the agent, its version and the outcomes the model's choices make.
 */

let world: CliWorld;
const scripts = new Map<string, Script>();
let skillDir = '';

beforeAll(async () => {
  world = await startCliWorld({ name: 'agents-e2e', model: { seed: 24, script: byQueryPrefix(scripts) } });
  skillDir = path.dirname(
    await world.write(
      'handoff/SKILL.md',
      '---\nname: handoff\ndescription: Write HANDOFF.md summarising the session so a fresh session can resume\n---\n\nBody.\n',
    ),
  );
  // Every query that asks for the handoff loads the skill; every other one is answered in text.
  scripts.set('hit', () => ({ kind: 'skill' }));
  scripts.set('miss', () => ({ kind: 'text' }));
});

afterAll(async () => {
  await world?.close();
});

const env = () => world.agentEnv('codex');

/** The same two queries in every scenario, so their reports can be compared. */
const EVAL = JSON.stringify([
  { query: 'hit: write the handoff notes', should_trigger: true },
  { query: 'miss: rename a variable', should_trigger: false },
]);

const run = async (name: string, extra: string[]) => {
  const evalFile = await world.write(`${name}.json`, EVAL);
  const before = world.model.requests.length;
  const out = path.join(world.work, `out-${name}`);
  const result = await runCli(
    ['run', '--skill', skillDir, '--eval', evalFile, '--codex', CODEX_BIN, '--out', out, ...extra],
    { env: env() },
  );
  // The scenario's requests by API: Codex posts to /v1/responses, claude to /v1/messages.
  // (The gates' round trips are claude's own queries, not the eval set's.)
  const own = world.model.requests
    .slice(before)
    .filter((r) => r.view?.query.startsWith('hit:') || r.view?.query.startsWith('miss:'));
  const requests = {
    responses: own.filter((r) => r.path.endsWith('/responses')).length,
    messages: own.filter((r) => r.path.endsWith('/messages')).length,
  };
  return { result, out, requests };
};

async function readReport(out: string) {
  const json = (await readdir(out)).filter((f) => f.endsWith('.json'));
  expect(json).toHaveLength(1);
  const file = path.join(out, json[0] ?? '');
  return {
    report: reportSchema.parse(JSON.parse(await readFile(file, 'utf8'))),
    markdown: await readFile(file.replace(/\.json$/, '.md'), 'utf8'),
  };
}

describe('run --agent', () => {
  it('codex: the report names the agent and its version; a read is a hit, a message a miss', async () => {
    const { result, out, requests } = await run('cx', ['--agent', 'codex', '--runs', '2', '--standby', '1']);
    // Codex starts warm too: its runs after the first are prompted standbys.
    expect(result.stderr).not.toContain('always start cold');
    expect(result.code).toBe(0);
    const { report } = await readReport(out);
    expect(report.schemaVersion).toBe(REPORT_SCHEMA_VERSION);
    expect(report.agents).toEqual([{ name: 'codex', version: '0.169.0' }]);
    expect(report.cli.version).toBe('0.169.0');
    expect(report.settings.agents).toBeUndefined();
    expect(report.settings.launch).toBe('standby');
    const [hit, miss] = report.candidate.queries;
    expect(hit?.outcomes).toEqual(['triggered', 'triggered']);
    expect(miss?.outcomes).toEqual(['not-triggered', 'not-triggered']);
    expect(report.verdict).toBe('ok');
    // Every run went through Codex: no claude run asked the model anything for these queries.
    expect(requests.responses).toBeGreaterThanOrEqual(4);
    expect(requests.messages).toBe(0);
  });

  it('claude,codex: one report, each agent judged on its own, a JUnit suite per agent', async () => {
    const junit = path.join(world.work, 'both.xml');
    const { result, out, requests } = await run('both', [
      '--agent',
      'claude,codex',
      '--runs',
      '2',
      '--standby',
      '0',
      '--junit',
      junit,
    ]);
    expect(result.code).toBe(0);
    // The headline: one line per agent.
    expect(result.stdout).toMatch(/^claude: positives triggered 2\/2 · negatives fired 0\/2/m);
    expect(result.stdout).toMatch(/^codex: positives triggered 2\/2 · negatives fired 0\/2/m);
    const { report, markdown } = await readReport(out);
    expect(report.agents.map((a) => a.name)).toEqual(['claude', 'codex']);
    expect(report.agents[1]?.version).toBe('0.169.0');
    expect(report.agents[0]?.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(report.settings.agents).toEqual(['claude', 'codex']);
    expect(Object.keys(report.candidate.byAgent ?? {})).toEqual(['claude', 'codex']);
    for (const agent of ['claude', 'codex']) {
      const own = report.candidate.byAgent?.[agent];
      expect(own?.verdict).toBe('ok');
      expect(own?.totals.positives).toEqual({ triggered: 2, runs: 2 });
      expect(own?.totals.negatives).toEqual({ fired: 0, runs: 2 });
    }
    const [hit] = report.candidate.queries;
    expect(hit?.agents?.slice().sort()).toEqual(['claude', 'claude', 'codex', 'codex']);
    expect(requests.responses).toBeGreaterThanOrEqual(4);
    expect(requests.messages).toBeGreaterThanOrEqual(4);
    expect(markdown).toContain('| codex |');
    const suites = parseJunit(await readFile(junit, 'utf8')).suites;
    expect(suites.map((s) => s.name)).toEqual(['handoff · claude', 'handoff · codex']);
    // Eight real runs of two CLIs after claude's gates and listing probe: minutes on a loaded machine.
  }, 300_000);

  it('compare across agents warns, and compares only the agent both measured', async () => {
    const file = async (out: string) => {
      const [json] = (await readdir(out)).filter((f) => f.endsWith('.json'));
      return path.join(out, json ?? '');
    };
    const base = await file(path.join(world.work, 'out-cx'));
    const cand = await file(path.join(world.work, 'out-both'));
    const r = await runCli(['compare', base, cand, '--json'], { env: env() });
    expect(r.code, r.stderr).toBe(0);
    const json = JSON.parse(r.stdout) as {
      warnings: Array<{ code: string }>;
      models: Record<string, unknown>;
    };
    expect(json.warnings.map((w) => w.code)).toContain('agents-differ');
    expect(Object.keys(json.models)).toEqual(['codex']);
    const codex = json.models.codex as { warnings: Array<{ code: string; message: string }> };
    expect(codex.warnings.find((w) => w.code === 'agents')?.message).toContain('agents differ');
  });

  it('a bad --agent, or a model that names no agent, exits 1 before anything runs', async () => {
    const before = world.model.requests.length;
    const unknown = await run('bad', ['--agent', 'copilot']);
    expect(unknown.result.code).toBe(1);
    expect(unknown.result.stderr).toContain('unknown agent "copilot"');
    expect(unknown.result.stderr).toContain('the agents are claude, codex and gemini');
    const twice = await run('bad2', ['--agent', 'codex,codex']);
    expect(twice.result.code).toBe(1);
    expect(twice.result.stderr).toContain('twice');
    const unqualified = await run('bad3', ['--agent', 'claude,codex', '--model', 'gpt-5']);
    expect(unqualified.result.code).toBe(1);
    expect(unqualified.result.stderr).toContain('claude:<model>,codex:<model>');
    expect(world.model.requests.length).toBe(before);
  });
});
