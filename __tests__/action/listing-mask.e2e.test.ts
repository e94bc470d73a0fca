import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeListed } from '../../src/report/build/listed.js';
import { reportSchema } from '../../src/schemas/report.js';
import { GATE_QUERY } from '../../src/simulated/model.js';
import { type ActionWorld, actionLog, actionVerdicts, startActionWorld } from '../fakes/action-world.js';
import { CLAUDE_BIN } from '../fakes/claude-env.js';
import { type ActionResult, evalsJson, pullRequestPayload, runAction, skillFile } from './harness.js';

/**
 * The bundled Action on a pull request measured paired (`baseline: measure`), with a hostile eval
 * set: (1) each side measures the text Claude Code itself lists for its SKILL.md (the listing
 * probe, as the CLI's run), and the reports record it as `description.listed` with source `probe`;
 * (2) an eval query carrying the API key and an `sk-ant-` token the step was never given reaches
 * neither the GitHub API (the comment) nor the job summary: both are masked before they leave.
 */

const CANARY_KEY = 'sk-ant-listing-mask-canary-7d2e91';
/**
 * A token the step was not given (so not registered): masked by its shape alone. Its underscores
 * are what Markdown escaping turns into `\_`, which a mask of the finished body would miss.
 */
const STRAY_TOKEN = 'sk-ant-api03-stray_token_in_an_eval_query';
const TOKEN = 'ghs_actions_token_for_listing_mask';
const SKILL = '.claude/skills/handoff/SKILL.md';
const BASE_TEXT = 'Write HANDOFF.md so a fresh session can resume. Use when ending a session.';
const HEAD_TEXT =
  'Write HANDOFF.md, the one resume file, so a fresh session can resume. Use when ending a session.';

let world: ActionWorld;
let base: string;
let head: string;
let result: ActionResult;

beforeAll(async () => {
  world = await startActionWorld({
    name: 'listing-mask-e2e',
    seed: 3,
    tokens: { [TOKEN]: { login: 'github-actions[bot]', type: 'Bot', installation: true } },
    script: (req) => {
      if (req.query === GATE_QUERY) return undefined;
      // The hostile query is a positive that never loads the skill, so the comment lists it as failed.
      return req.query.startsWith('pos') ? { kind: 'skill' } : { kind: 'text' };
    },
  });
  const { repo } = world;
  await repo.commit('Initial', { 'README.md': '# skills\n' });
  base = await repo.commit('Add handoff', {
    [SKILL]: skillFile('handoff', BASE_TEXT),
    '.claude/skills/handoff/evals.json': evalsJson([
      { query: 'pos 1: write the handoff notes', should_trigger: true },
      { query: 'pos 2: I am done for today, hand off', should_trigger: true },
      {
        query: `hostile: my key is ${CANARY_KEY} and the other is ${STRAY_TOKEN}; write the handoff`,
        should_trigger: true,
      },
      { query: 'neg 1: what is the capital of France', should_trigger: false },
    ]),
  });
  repo.git('checkout', '-q', '-b', 'reword');
  head = await repo.commit('Reword handoff', { [SKILL]: skillFile('handoff', HEAD_TEXT) });
});

afterAll(async () => {
  await world?.close();
});

describe('the Action measures what Claude Code lists, and masks what it posts', () => {
  it('runs paired on the PR', { timeout: 300_000 }, async () => {
    result = await runAction({
      cwd: world.repo.dir,
      eventName: 'pull_request',
      payload: pullRequestPayload({ number: 9, baseSha: base, headSha: head, headRef: 'reword' }),
      inputs: {
        'anthropic-api-key': CANARY_KEY,
        'github-token': TOKEN,
        'claude-path': CLAUDE_BIN,
        baseline: 'measure',
        runs: '1',
        timeout: '30',
      },
      env: world.env({ GITHUB_SHA: head, GITHUB_REF: 'refs/pull/9/merge' }),
    });
    expect(result.code, actionLog(result)).toBe(0);
    expect(actionVerdicts(result).handoff).toMatchObject({ baseline: 'paired' });
    expect(result.stdout).toContain('listing: read from Claude Code (the listing probe)');
  });

  it('records each side’s listed text as the probe read it', async () => {
    const reports = (result.outputs.reports ?? '').split('\n').filter(Boolean);
    expect(reports).toHaveLength(1);
    const report = reportSchema.parse(JSON.parse(await readFile(reports[0] ?? '', 'utf8')));
    // The listed texts are the descriptions as written (no cut, no when_to_use): their size and hash.
    expect(report.candidate.description.listed).toEqual(describeListed(HEAD_TEXT, 'probe'));
    expect(report.baseline?.description.listed).toEqual(describeListed(BASE_TEXT, 'probe'));
  });

  it('posts a comment and writes a summary that quote the hostile query with both secrets masked', () => {
    const bodies = world.github.requests.map((r) => r.body ?? '');
    const comment = world.github.comments(9)[0]?.body ?? '';
    // The hostile query is in both (so the masking is what keeps the secrets out), masked whole
    // and then escaped (`***` is `\*\*\*` in Markdown).
    const masked = '| hostile: my key is \\*\\*\\* and the other is \\*\\*\\*; write the handoff |';
    expect(comment).toContain(masked);
    expect(result.summary).toContain(masked);
    for (const secret of [CANARY_KEY, STRAY_TOKEN]) {
      expect(JSON.stringify(bodies)).not.toContain(secret);
      expect(comment).not.toContain(secret);
      expect(result.summary).not.toContain(secret);
    }
  });
});
