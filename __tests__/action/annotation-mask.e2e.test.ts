import { afterAll, beforeAll, expect, it } from 'vitest';
import { GATE_QUERY } from '../../src/simulated/model.js';
import { type ActionWorld, actionLog, startActionWorld } from '../fakes/action-world.js';
import { CLAUDE_BIN } from '../fakes/claude-env.js';
import { evalsJson, pullRequestPayload, runAction, skillFile } from './harness.js';

/**
 * The bundled Action behind a gateway that echoes the key it was sent: the simulated upstream
 * refuses the round-trip gate's request with a 400 whose message carries the `x-api-key` (as a
 * proxy that echoes it does). The key has no `sk-ant-` shape, so only its registration masks it.
 * The gate fails, annotated; no annotation line, no failure line, no comment and no summary holds
 * the key. The one line that does is `::add-mask::`, which hands it to the runner's own mask.
 */

const KEY = 'gw-annotation-mask-canary-4b8e20';
const TOKEN = 'ghs_actions_token_for_annotation_mask';
const SKILL = '.claude/skills/tiny/SKILL.md';

let world: ActionWorld;

beforeAll(async () => {
  world = await startActionWorld({
    name: 'annotation-mask-e2e',
    tokens: { [TOKEN]: { login: 'github-actions[bot]', type: 'Bot', installation: true } },
    script: (req) =>
      req.query === GATE_QUERY
        ? { kind: 'api-error', status: 400, noRetry: true, echoApiKey: true }
        : undefined,
  });
  const { repo } = world;
  await repo.commit('Initial', { 'README.md': '# skills\n' });
  await repo.commit('Add tiny', {
    [SKILL]: skillFile('tiny', 'Say hello in the tiny way. Use when the user wants a tiny greeting.'),
    '.claude/skills/tiny/evals.json': evalsJson([
      { query: 'pos: say hello tinily', should_trigger: true },
      { query: 'neg: what time is it', should_trigger: false },
    ]),
  });
});

afterAll(async () => {
  await world?.close();
});

it('annotates the echoed refusal with the key masked', { timeout: 300_000 }, async () => {
  const base = world.repo.git('rev-parse', 'HEAD~1');
  const head = world.repo.git('rev-parse', 'HEAD');
  const result = await runAction({
    cwd: world.repo.dir,
    eventName: 'pull_request',
    payload: pullRequestPayload({ number: 4, baseSha: base, headSha: head, headRef: 'main' }),
    inputs: {
      'anthropic-api-key': KEY,
      'github-token': TOKEN,
      'claude-path': CLAUDE_BIN,
      baseline: 'none',
      runs: '1',
      timeout: '30',
    },
    env: world.env({ GITHUB_SHA: head, GITHUB_REF: 'refs/pull/4/merge' }),
  });
  // The gate failed on the upstream's refusal, which did echo the key (the fake saw it and said it).
  expect(result.code, actionLog(result)).toBe(2);
  const refusals = world.model.requests.filter((r) => r.behaviour?.kind === 'api-error');
  expect(refusals.length, actionLog(result)).toBeGreaterThan(0);
  const gate = result.annotations.find((a) => a.properties.title?.includes('gate round-trip failed'));
  expect(gate, actionLog(result)).toBeDefined();
  expect(gate?.properties.title).toContain('upstream refused the credential ***');

  const lines = result.stdout.split('\n').filter((l) => !l.startsWith('::add-mask::'));
  const annotationLines = lines.filter((l) => /^::(error|warning|notice)\b/.test(l));
  expect(annotationLines.length).toBeGreaterThan(0);
  expect(annotationLines.filter((l) => l.includes(KEY))).toEqual([]);
  expect(lines.filter((l) => l.includes(KEY))).toEqual([]);
  expect(result.stderr).not.toContain(KEY);
  expect(result.summary).not.toContain(KEY);
  expect(JSON.stringify(world.github.requests.map((r) => r.body ?? ''))).not.toContain(KEY);
});
