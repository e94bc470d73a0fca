import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeContext } from '../../src/inputs/context.js';
import type { MatrixReport } from '../../src/schemas/matrix.js';
import { type Routes, routeScript } from '../../src/simulated/model.js';
import { type CliResult, type CliWorld, runCli, startCliWorld } from '../fakes/cli.js';
import { writtenMatrix } from '../fakes/matrix-report.js';

/**
 * Contexts in the routing matrix (docs/context.md): an entry's own context and `--context` for the
 * others, on the real `claude` (warm standbys, keyed on the context) against the simulated model;
 * then on the real `codex`, each run resumed from its context; then on Gemini, which takes no
 * context, refused before anything runs. Model calls: each agent's gates, then 4 queries × 1 run.
 */
const GEMINI_BIN = path.resolve('node_modules/.bin/gemini');
const CODEX_BIN = path.resolve('node_modules/.bin/codex');
const OWN = [
  { role: 'user', content: 'mc: the build fails in utils.ts' },
  { role: 'assistant', content: 'mc: fixed the import' },
] as const;
const GIVEN = [
  { role: 'user', content: 'mc: add a health endpoint' },
  { role: 'assistant', content: 'mc: added GET /health' },
  { role: 'user', content: 'mc: and a test for it' },
  { role: 'assistant', content: 'mc: the test passes' },
] as const;
const FILES: Record<string, string> = {
  'skills/alpha/SKILL.md':
    '---\nname: alpha\ndescription: Write alpha reports for the weekly review\n---\n\nBody.\n',
  'skills/beta/SKILL.md':
    '---\nname: beta\ndescription: Draw beta charts from a table of numbers\n---\n\nBody.\n',
  'skills/alpha/evals/evals.json': JSON.stringify([
    { query: 'mc alpha: now write the weekly review', should_trigger: true, context: OWN },
    { query: 'mc alpha: water the plants', should_trigger: false },
  ]),
  'skills/beta/evals/evals.json': JSON.stringify([
    { query: 'mc beta: chart these numbers', should_trigger: true },
    { query: 'mc beta: what is the time', should_trigger: false },
  ]),
  'context.json': JSON.stringify(GIVEN),
};
const ROUTES: Routes = {
  'mc alpha: now write the weekly review': { alpha: 1 },
  'mc beta: chart these numbers': { beta: 1 },
};

let world: CliWorld;
let result: CliResult;
let report: MatrixReport | undefined;
let from: number;

beforeAll(async () => {
  world = await startCliWorld({
    name: 'matrix-context-e2e',
    model: { script: routeScript(ROUTES, () => ({ kind: 'text' })), recordBodies: true },
  });
  for (const [file, text] of Object.entries(FILES)) await world.write(file, text);
  const out = path.join(world.work, 'out');
  from = world.model.requests.length;
  result = await runCli(
    [
      'matrix',
      '--runs',
      '1',
      '--skills',
      path.join(world.work, 'skills'),
      '--context',
      path.join(world.work, 'context.json'),
      '--out',
      out,
    ],
    { env: world.claude.env },
  );
  report = await writtenMatrix(out);
}, 300_000);

afterAll(async () => {
  await world?.close();
});

describe('matrix with contexts', () => {
  it("starts each query with its entry's own context, else --context's, and says each by its summary", () => {
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('context: every run starts with 4 earlier turns');
    expect(report?.settings.context).toEqual(describeContext(GIVEN));
    const contexts = Object.fromEntries((report?.queries ?? []).map((q) => [q.query, q.context]));
    expect(contexts).toEqual({
      'mc alpha: now write the weekly review': describeContext(OWN),
      'mc alpha: water the plants': describeContext(GIVEN),
      'mc beta: chart these numbers': describeContext(GIVEN),
      'mc beta: what is the time': describeContext(GIVEN),
    });
    // The routes still hold: a context changes what the runs start with, not how they are counted.
    const loaded = Object.fromEntries((report?.queries ?? []).map((q) => [q.query, q.loaded]));
    expect(loaded['mc alpha: now write the weekly review']).toEqual({ alpha: 1 });
    expect(loaded['mc beta: chart these numbers']).toEqual({ beta: 1 });
    expect(JSON.stringify(report)).not.toContain('mc: the build fails');
  });

  it("sends each run's first request with its context's turns before the query", () => {
    const first = world.model.requests
      .slice(from)
      .filter((q) => q.turn === 1 && (q.view?.query ?? '').startsWith('mc '));
    expect(first).toHaveLength(4);
    for (const request of first) {
      const own = request.view?.query === 'mc alpha: now write the weekly review';
      expect(request.view?.priorTurns, request.view?.query).toBe(own ? OWN.length : GIVEN.length);
      expect(JSON.stringify(request.body)).toContain(own ? 'mc: fixed the import' : 'mc: the test passes');
    }
  });

  it('gives Codex the same contexts, each run resumed from its turns', async () => {
    const before = world.model.requests.length;
    const r = await runCli(
      ['matrix', '--agent', 'codex', '--codex', CODEX_BIN, '--runs', '1'].concat([
        '--skills',
        path.join(world.work, 'skills'),
        '--context',
        path.join(world.work, 'context.json'),
        '--out',
        path.join(world.work, 'out-codex'),
      ]),
      {
        env: { ...world.claude.env, OPENAI_BASE_URL: `${world.model.url}/v1`, OPENAI_API_KEY: 'sk-test-mc' },
      },
    );
    expect(r.code, r.stderr).toBe(0);
    const codex = await writtenMatrix(path.join(world.work, 'out-codex'));
    expect(codex?.agent).toBe('codex');
    expect(codex?.settings.context).toEqual(describeContext(GIVEN));
    const first = world.model.requests
      .slice(before)
      .filter((q) => q.path === '/v1/responses' && q.turn === 1 && (q.view?.query ?? '').startsWith('mc '));
    expect(first).toHaveLength(4);
    for (const request of first) {
      const own = request.view?.query === 'mc alpha: now write the weekly review';
      expect(request.view?.priorTurns, request.view?.query).toBe(own ? OWN.length : GIVEN.length);
    }
  });

  it("refuses an entry's context on Gemini, which takes none, before anything runs", async () => {
    const before = world.model.requests.length;
    const r = await runCli(['matrix', '--agent', 'gemini', '--skills', path.join(world.work, 'skills')], {
      env: { ...world.claude.env, SKILLTRIGGER_GEMINI: GEMINI_BIN, GEMINI_API_KEY: 'gemini-test-key' },
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /evals\.json: an entry's context: Gemini CLI cannot be measured with a context yet/,
    );
    expect(world.model.requests.length).toBe(before);
  });
});
