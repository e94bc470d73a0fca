import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_IDS, type AgentId } from '../../src/agents/ids.js';
import { agentFacts, DEFAULT_AGENT } from '../../src/agents/registry.js';
import type { AgentRunResult } from '../../src/agents/runs.js';
import { loopRuntimeOf } from '../../src/agents/runtime.js';
import { type Behaviour, type SimulatedModel, startSimulatedModel } from '../../src/simulated/model.js';
import { listedNameOf } from '../../src/simulated/route.js';
import { liveMembers, type ProcessView, processesIn } from '../fakes/process-group.js';

/**
 * The seam as a contract every registered agent keeps, through its REAL pinned binary opened by
 * the loop's own runtime (`loopRuntimeOf`) against the simulated model (docs/architecture.md, "A
 * new agent"): a load of the stub is a hit on the stub; an answer is a miss; a sibling's load is a
 * miss naming the sibling; an API failure is an error and a silent model a timeout, never misses;
 * each side lists its own text; the launch carries the query, the model, the key and a throwaway
 * home, and no other agent's secret; every run's process group is gone when the run is over, a run
 * aborted mid-stream included; and no temp project is left. A new agent joins by being registered,
 * and the compiler then asks for its rows in the tables below.
 */

/** Where each agent's runs send their model calls, pointed at the simulated model. */
const ENDPOINTS: Record<AgentId, (url: string) => Record<string, string>> = {
  claude: (url) => ({ ANTHROPIC_BASE_URL: url }),
  codex: (url) => ({ OPENAI_BASE_URL: `${url}/v1` }),
  gemini: (url) => ({ GOOGLE_GEMINI_BASE_URL: url }),
};

/** How each agent's launch carries the query (the end of its argv) and the model. */
const ARGV: Record<AgentId, { query: (q: string) => string[]; model: (m: string) => string[] }> = {
  claude: { query: (q) => ['--', q], model: (m) => ['--model', m] },
  codex: { query: (q) => ['--', q], model: (m) => ['-m', m] },
  gemini: { query: (q) => [`--prompt=${q}`], model: (m) => ['-m', m] },
};

/**
 * The variable that names each agent's home in its runs: the HOME it was handed (Claude Code reads
 * the user's own setup), or a throwaway one under the run's temp folder.
 */
const HOME_VARIABLE: Record<AgentId, string> = {
  claude: 'HOME',
  codex: 'CODEX_HOME',
  gemini: 'GEMINI_CLI_HOME',
};

/**
 * Agents whose runs inherit the user's whole setup on purpose (MCP servers and hooks, whose
 * programs may need another vendor's key; docs/security.md), with why: the one exception to "no
 * other agent's secret reaches a run".
 */
const INHERITS_USER_ENVIRONMENT: Partial<Record<AgentId, string>> = {
  claude: "its runs start the user's MCP servers and hooks, with the user's environment",
};

const BEHAVIOURS: Record<string, Behaviour | undefined> = {
  'conformance: answer': { kind: 'text' },
  'conformance: 500': { kind: 'api-error', status: 500 },
  'conformance: stall': { kind: 'stall' },
  'conformance: hang': { kind: 'hang' },
};

const CANDIDATE = 'Write HANDOFF.md summarising the session';
const BASELINE = 'Summarise the session for the next one';
const MODEL = 'conformance-model';
let model: SimulatedModel;
let tmp = '';
let home = '';
const outerTmp = process.env.TMPDIR;
/** What ran under `tmp` when each query's first request reached the model. */
const launches = new Map<string, ProcessView[]>();
/** The run to abort once its request is at the model (mid-stream: the answer has started). */
let abortAtRequest: AbortController | undefined;

beforeAll(async () => {
  home = await mkdtemp(path.join(tmpdir(), 'skilltrigger-conformance-home-'));
  // The runs' temp projects go under os.tmpdir(): a folder of this file's own, checked empty after.
  tmp = await mkdtemp(path.join(tmpdir(), 'skilltrigger-conformance-'));
  process.env.TMPDIR = tmp;
  model = await startSimulatedModel({
    chunkDelayMs: 0,
    script: (req) => {
      if (!launches.has(req.query)) launches.set(req.query, processesIn(tmp));
      if (req.query.startsWith('conformance: stall') && abortAtRequest) {
        const controller = abortAtRequest;
        setTimeout(() => controller.abort(new Error('conformance: aborted mid-stream')), 300);
      }
      // Loads named by skill: with a sibling listed, "the stub" alone is ambiguous to the model.
      return req.query.startsWith('conformance: load')
        ? { kind: 'skill', name: listedNameOf(req, 'handoff') }
        : req.query.startsWith('conformance: sibling')
          ? { kind: 'skill', name: listedNameOf(req, 'pdf') }
          : BEHAVIOURS[req.query.replace(/ #\w+$/, '')];
    },
  });
});

afterAll(async () => {
  await model?.close();
  if (outerTmp === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = outerTmp;
  await rm(tmp, { recursive: true, force: true });
  await rm(home, { recursive: true, force: true });
});

it('every registered agent says where its model calls go, how its argv carries a run, and its home', () => {
  for (const table of [ENDPOINTS, ARGV, HOME_VARIABLE])
    expect(Object.keys(table).sort()).toEqual([...AGENT_IDS].sort());
});

/** Every other agent's secret variables, each with a value of its own to look for. */
function foreignSecrets(id: AgentId): Record<string, string> {
  const names = AGENT_IDS.filter((other) => other !== id).flatMap(
    (other) => agentFacts(other).secretVariables,
  );
  return Object.fromEntries(names.map((name) => [name, `conformance-foreign-${name}`]));
}

/** The process the runtime spawned for `query`: the leader of the group whose argv ends with it. */
function leaderOf(id: AgentId, query: string): ProcessView {
  const tail = ARGV[id].query(query);
  const seen = launches.get(query) ?? [];
  const leader = seen.find(
    (p) => p.pid === p.pgid && p.argv.slice(-tail.length).join('\0') === tail.join('\0'),
  );
  if (leader === undefined)
    throw new Error(
      `no group leader ending with ${JSON.stringify(tail)} among ${seen.map((p) => p.argv.join(' '))}`,
    );
  return leader;
}

describe.each(AGENT_IDS)('the %s agent keeps the seam', (id) => {
  const facts = agentFacts(id);
  const query = (q: string) => `${q} #${id}`;
  const key = `conformance-key-${id}`;
  const foreign = foreignSecrets(id);
  let results: Record<string, AgentRunResult> = {};
  /** Each run's process groups still live once the run was over (none, when the kill holds). */
  const leftAlive: Record<string, string[]> = {};
  let aborted: unknown;
  let from = 0;

  beforeAll(async () => {
    // Another agent's secrets in the environment the runtime is handed, and in this process's own
    // (a runtime may start its children from it): neither may reach this agent's runs.
    const saved = Object.fromEntries(Object.keys(foreign).map((name) => [name, process.env[name]]));
    Object.assign(process.env, foreign);
    try {
      const agent = loopRuntimeOf(id).open({
        bin: path.resolve('node_modules/.bin', facts.bin),
        env: {
          PATH: process.env.PATH ?? '',
          TMPDIR: tmp,
          HOME: home,
          ...foreign,
          ...ENDPOINTS[id](model.url),
          [facts.keyVariable]: key,
        },
        stubs: {
          skillName: 'handoff',
          descriptions: [CANDIDATE, BASELINE],
          siblings: [{ skillName: 'pdf', description: 'Fill PDF forms' }],
        },
      });
      from = model.requests.length;
      results = {};
      const run = async (
        name: string,
        q: string,
        options: { side?: number; timeoutMs?: number; model?: string },
      ) => {
        results[name] = await agent.run({
          query: query(q),
          side: options.side ?? 0,
          timeoutMs: options.timeoutMs ?? 30_000,
          ...(options.model ? { model: options.model } : {}),
        });
        leftAlive[name] = (launches.get(query(q)) ?? []).flatMap((p) => liveMembers(p.pgid));
      };
      await run('load', 'conformance: load', {});
      await run('sibling', 'conformance: sibling', {});
      await run('500', 'conformance: 500', { model: MODEL });
      await run('answer', 'conformance: answer', { side: 1 });
      abortAtRequest = new AbortController();
      aborted = await agent
        .run({
          query: query('conformance: stall'),
          side: 0,
          timeoutMs: 30_000,
          signal: abortAtRequest.signal,
        })
        .then(
          (result) => result,
          (error: unknown) => error,
        );
      leftAlive.stall = (launches.get(query('conformance: stall')) ?? []).flatMap((p) => liveMembers(p.pgid));
      await run('hang', 'conformance: hang', { timeoutMs: 8_000 });
      await agent.settle?.();
    } finally {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  }, 180_000);

  it('a load of the stub is a hit on the stub, told as this agent', () => {
    const hit = results.load;
    expect(hit?.outcome).toEqual({ kind: 'triggered' });
    expect(hit?.loaded?.kind).toBe('stub');
    expect(hit?.agent ?? DEFAULT_AGENT).toBe(id);
  });

  it('an answer is a miss, and a sibling load a miss that names the sibling', () => {
    expect(results.answer?.outcome).toEqual({ kind: 'not-triggered' });
    const sibling = results.sibling;
    expect(sibling?.outcome).toEqual({ kind: 'not-triggered' });
    expect(sibling?.loaded).toEqual({ kind: 'sibling', name: 'pdf' });
  });

  it('an API failure is an error and a silent model a timeout, never misses', () => {
    expect(results['500']?.outcome.kind).toBe('error');
    expect(results.hang?.outcome).toEqual({ kind: 'timeout' });
  });

  it('each side lists its own text beside the sibling', () => {
    const listed = (q: string) => {
      const request = model.requests.slice(from).find((r) => r.view?.query === query(q));
      return request?.view?.listing
        .filter((e) => /-stub-[0-9a-f]{8}$/.test(e.name))
        .map((e) => [e.name.replace(/-[0-9a-f]{8}$/, ''), e.description.trim()])
        .sort();
    };
    expect(listed('conformance: load')).toEqual([
      ['handoff-stub', CANDIDATE],
      ['pdf-stub', 'Fill PDF forms'],
    ]);
    expect(listed('conformance: answer')).toEqual([
      ['handoff-stub', BASELINE],
      ['pdf-stub', 'Fill PDF forms'],
    ]);
  });

  it('its argv carries the query and the model, and its project lies under the temp root', () => {
    const plain = leaderOf(id, query('conformance: load'));
    expect(plain.argv.slice(-ARGV[id].query('').length)).toEqual(ARGV[id].query(query('conformance: load')));
    expect(plain.cwd.startsWith(`${tmp}/`), plain.cwd).toBe(true);
    const withModel = leaderOf(id, query('conformance: 500'));
    expect(withModel.argv.join('\0')).toContain(ARGV[id].model(MODEL).join('\0'));
    expect(model.requests.find((r) => r.view?.query === query('conformance: 500'))?.view?.model).toBe(MODEL);
  });

  it('its environment carries its key and a throwaway home, and no other agent’s secret', () => {
    const leader = leaderOf(id, query('conformance: load'));
    expect(leader.env[facts.keyVariable]).toBe(key);
    const ownHome = leader.env[HOME_VARIABLE[id]] ?? '';
    expect(ownHome === home || ownHome.startsWith(`${tmp}/`), `${HOME_VARIABLE[id]}=${ownHome}`).toBe(true);
    if (INHERITS_USER_ENVIRONMENT[id] !== undefined) return;
    const group = (launches.get(query('conformance: load')) ?? []).filter((p) => p.pgid === leader.pgid);
    const carried = group.flatMap((p) =>
      Object.entries(p.env)
        .filter(([, value]) => Object.values(foreign).includes(value))
        .map(([name]) => `${p.argv[0]}: ${name}`),
    );
    expect(carried).toEqual([]);
  });

  it('every run’s process group is gone once the run is over, one aborted mid-stream included', () => {
    expect(aborted).toBeInstanceOf(Error);
    for (const name of ['load', 'sibling', '500', 'answer', 'stall', 'hang'])
      expect(
        launches.get(query(`conformance: ${name}`))?.length,
        `${name}: seen at the model`,
      ).toBeGreaterThan(0);
    for (const name of ['load', 'sibling', '500', 'answer', 'stall', 'hang'])
      expect(leftAlive[name], name).toEqual([]);
  });

  it('leaves no temp project of its runs behind', async () => {
    expect(await readdir(tmp)).toEqual([]);
  });
});
