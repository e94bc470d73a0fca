import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportSchema } from '../../src/schemas/report.js';
import { GATE_QUERY } from '../../src/simulated/model.js';
import { type ActionWorld, actionLog, actionVerdicts, startActionWorld } from '../fakes/action-world.js';
import { CLAUDE_BIN } from '../fakes/claude-env.js';
import { evalsJson, pullRequestPayload, runAction, skillFile } from './harness.js';
import { runActionInProcess } from './in-process.js';

/**
 * The Action's `roster` input (docs/action.md, "Measuring among a roster") through the real
 * `claude` against the simulated model, on claude-sonnet-4-5 (an 8,000-character budget): a
 * committed folder of three 300-character skills whose folders sort before the skill's. The base
 * description (67 characters) is listed whole among them; the pull request grows it to 1,400,
 * past the room the crowd leaves (about 860), so its stub is listed name-only. The model loads
 * the skill on every positive either way, so no rate moves: the listing alone is the regression,
 * and with fail-on-regression the check fails. A roster path that names nothing is the input's
 * error before anything is installed or spent.
 * Runs: 2 queries × 2 sides × 1 run = 4 measured runs, plus the gates.
 *
 * The measured case runs the bundle as the runner starts it (`node dist/index.js`); the refusal,
 * which stops before anything runs, calls the entry in this process (in-process.ts).
 */

const TOKEN = 'ghs_actions_token_for_roster';
const SKILL = '.claude/skills/tiny/SKILL.md';
const SHORT = 'Say hello in the tiny way. Use when the user wants a tiny greeting.';
const LONG = `Say hello in the tiny way. ${'Greets warmly and briefly. '.repeat(50)}Use when the user wants a tiny greeting.`;

let world: ActionWorld;
let base: string;
let head: string;

beforeAll(async () => {
  world = await startActionWorld({
    name: 'roster-e2e',
    tokens: { [TOKEN]: { login: 'github-actions[bot]', type: 'Bot', installation: true } },
    model: { isStub: (e) => e.name === 'tiny' },
    script: (req) =>
      req.query !== GATE_QUERY && req.query.startsWith('pos') ? { kind: 'skill' } : undefined,
  });
  const { repo } = world;
  const crowd = Object.fromEntries(
    ['aa-one', 'aa-two', 'aa-three'].map((name) => [
      `.github/crowd/${name}/SKILL.md`,
      `---\ndescription: ${'x'.repeat(300)}\n---\nbody\n`,
    ]),
  );
  await repo.commit('Initial', { 'README.md': '# skills\n', ...crowd });
  base = await repo.commit('Add tiny', {
    [SKILL]: skillFile('tiny', SHORT),
    '.claude/skills/tiny/evals.json': evalsJson([
      { query: 'pos: say hello tinily', should_trigger: true },
      { query: 'neg: what time is it', should_trigger: false },
    ]),
  });
  repo.git('checkout', '-q', '-b', 'grow');
  head = await repo.commit('Grow tiny', { [SKILL]: skillFile('tiny', LONG) });
}, 120_000);

afterAll(async () => {
  await world?.close();
});

const measure = (pr: number, inputs: Record<string, string>, entry = runAction) =>
  entry({
    cwd: world.repo.dir,
    eventName: 'pull_request',
    payload: pullRequestPayload({ number: pr, baseSha: base, headSha: head, headRef: 'grow' }),
    inputs: {
      'anthropic-api-key': 'sk-test',
      'github-token': TOKEN,
      'claude-path': CLAUDE_BIN,
      model: 'claude-sonnet-4-5',
      baseline: 'measure',
      competition: 'isolated',
      'fail-on-regression': 'true',
      runs: '1',
      timeout: '60',
      ...inputs,
    },
    env: world.env({ GITHUB_SHA: head, GITHUB_REF: `refs/pull/${pr}/merge` }),
  });

describe('the Action with a roster', () => {
  it('reports a description grown past the room the roster leaves as going name-only, and fails the check', {
    timeout: 600_000,
  }, async () => {
    await world.freshJob();
    const result = await measure(1, { roster: '.github/crowd' });
    expect(result.code, actionLog(result)).toBe(1);
    expect(result.failure).toMatch(
      /^regression in 1 skill: tiny \(\.claude\/skills\/tiny\/SKILL\.md:\d+\): Claude Code would list it name-only \(whole on the baseline\): its description is 1,4\d\d characters against the 8,000-character budget$/,
    );
    const reportPath = result.outputs.reports?.split('\n')[0] ?? '';
    const report = reportSchema.parse(JSON.parse(await readFile(reportPath, 'utf8')));
    expect(report.settings.roster).toMatchObject({ from: 'folder', skills: 3, commands: 0 });
    expect(report.baseline?.listing?.claude?.stub).toMatchObject({ state: 'whole', chars: SHORT.length });
    expect(report.candidate.listing?.claude?.stub).toMatchObject({
      state: 'bare',
      chars: 0,
      text: LONG.length,
    });
    expect(report.candidate.listing?.claude?.runs).toMatchObject({ bare: 2, whole: 0 });
    // The model loaded the skill on the positive on both sides: no rate moved.
    expect(report.candidate.totals.positives.triggered).toBe(1);
    expect(report.baseline?.totals.positives.triggered).toBe(1);
    expect(actionVerdicts(result).tiny).toMatchObject({ standing: 'regression', passed: false });
    const body = world.github.comments(1)[0]?.body ?? '';
    expect(body).toMatch(
      new RegExp(
        `Among the roster: the baseline is listed whole \\(${SHORT.length} of 8,000 characters\\); this PR would be listed name-only: it makes the description 1,${String(LONG.length).slice(1)} characters, and the listing leaves \\d{3} of 8,000 characters for it\\. A regression by itself`,
      ),
    );
    // The local command measures among the same crowd.
    expect(body).toContain('--model claude-sonnet-4-5 --roster .github/crowd.');
    // Counts only: the crowd's text never reaches the comment or the report.
    expect(body).not.toContain('aa-one');
    expect(JSON.stringify(report)).not.toContain('aa-one');
  });

  it('refuses a roster path that names nothing, before anything is installed or spent', {
    timeout: 120_000,
  }, async () => {
    await world.freshJob();
    const from = world.model.requests.length;
    const result = await measure(2, { roster: '.github/no-such-crowd' }, runActionInProcess);
    expect(result.code, actionLog(result)).toBe(1);
    expect(result.failure).toBe(
      'input roster: .github/no-such-crowd: no such file or folder. Fix: set roster to a roster file (`skilltrigger roster export`) or a folder of skill folders committed in the repository, as a path relative to the workspace (docs/roster.md), or leave it empty',
    );
    expect(world.model.requests.length).toBe(from);
  });
});
