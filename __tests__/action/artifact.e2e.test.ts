import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ActionWorld, actionLog, startActionWorld } from '../fakes/action-world.js';
import { type ArtifactServiceFake, startArtifactService, unzip } from '../fakes/artifact-service.js';
import { CLAUDE_BIN } from '../fakes/claude-env.js';
import { type ActionResult, evalsJson, pullRequestPayload, runAction, skillFile } from './harness.js';

/**
 * The bundled Action (dist/index.js, run as the runner runs it) puts the reports' HTML pages in
 * the job's artifact: through a loopback fake of the artifact service (twirp + blob blocks, as
 * `@actions/artifact` speaks it) when the runner gives the service's token and URL, and says so in
 * the job summary; without them, or when the service refuses, a warning and the job's own result.
 * Each run measures one two-query skill on a PR, one run per query, against the simulated model.
 */

const SKILL = '.claude/skills/pages/SKILL.md';
const DESCRIPTION = 'Explain HTML pages. Use when the user asks about web pages.';

let world: ActionWorld;
let artifacts: ArtifactServiceFake;
let base = '';
let head = '';

async function measure(extraEnv: Record<string, string>): Promise<ActionResult> {
  await world.freshJob();
  return runAction({
    cwd: world.repo.dir,
    env: world.env({
      GITHUB_REPOSITORY: 'acme/skills',
      GITHUB_REF: 'refs/pull/7/merge',
      GITHUB_JOB: 'trigger-check',
      ...extraEnv,
    }),
    eventName: 'pull_request',
    payload: pullRequestPayload({ number: 7, baseSha: base, headSha: head, headRef: 'pages' }),
    inputs: {
      'anthropic-api-key': 'sk-test',
      'claude-path': CLAUDE_BIN,
      runs: '1',
      timeout: '30',
      baseline: 'none',
      comment: 'false',
    },
  });
}

const warnings = (r: ActionResult) =>
  r.annotations.filter((a) => a.level === 'warning').map((a) => a.message);

beforeAll(async () => {
  world = await startActionWorld({
    name: 'artifact-e2e',
    seed: 5,
    script: (req) => (req.query.startsWith('pages-pos') ? { kind: 'skill' } : { kind: 'text' }),
    tokens: {},
    // The artifact fake gives the job its ACTIONS_RESULTS_URL and token, or nothing does.
    cacheEnv: false,
  });
  artifacts = await startArtifactService();
  base = await world.repo.commit('Initial', { 'README.md': '# skills\n' });
  head = await world.repo.commit('Add the pages skill', {
    [SKILL]: skillFile('pages', DESCRIPTION),
    '.claude/skills/pages/evals.json': evalsJson([
      { query: 'pages-pos 1: what is an <a href> tag', should_trigger: true },
      { query: 'pages-neg 1: write a limerick', should_trigger: false },
    ]),
  });
});

afterAll(async () => {
  await world?.close();
  await artifacts?.close();
});

describe('the Action: the HTML pages in the job artifact', () => {
  it('with the artifact service: the page is uploaded, zipped as written, and the summary names and links the artifact', async () => {
    const result = await measure({ ...artifacts.env(), GITHUB_RUN_ID: '4242' });
    expect(result.code, actionLog(result)).toBe(0);
    expect(artifacts.artifacts.map((a) => a.name)).toEqual(['skilltrigger-pages-trigger-check']);
    const [artifact] = artifacts.artifacts;
    const files = unzip(artifact?.data ?? Buffer.alloc(0));
    const report = result.outputs.reports ?? '';
    const page = `${report.replace(/\.json$/, '')}.html`;
    // The artifact holds the page alone, under its own name, byte for byte.
    expect([...files.keys()]).toEqual([path.basename(page)]);
    expect(files.get(path.basename(page))?.toString('utf8')).toBe(await readFile(page, 'utf8'));
    expect(result.summary).toContain('HTML pages in the artifact skilltrigger-pages-trigger-check');
    // The footer links the run and the artifact's own page (the run's /artifacts/<id>).
    expect(result.summary).toMatch(
      /More: \[workflow run\]\(https:\/\/github\.com\/acme\/skills\/actions\/runs\/4242\) · .* · HTML pages: \[skilltrigger-pages-trigger-check\]\(https:\/\/github\.com\/acme\/skills\/actions\/runs\/4242\/artifacts\/\d+\)/,
    );
    expect(warnings(result).filter((w) => /artifact/.test(w))).toEqual([]);
    // Staged blocks, a committed list, a finalize: the blob protocol was really spoken.
    expect(artifacts.requests.map((r) => `${r.route} ${r.status}`)).toEqual(
      expect.arrayContaining(['CreateArtifact 200', 'block 201', 'blocklist 201', 'FinalizeArtifact 200']),
    );
  }, 300_000);

  it('the service refuses (the name is taken): a warning, the job keeps its own result, no summary line', async () => {
    const before = artifacts.artifacts.length;
    const result = await measure(artifacts.env());
    expect(result.code, actionLog(result)).toBe(0);
    expect(artifacts.artifacts).toHaveLength(before);
    const warned = warnings(result).filter((w) => /artifact/.test(w));
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatch(
      /the HTML page could not be put in the job's artifact: the upload failed: .*409/,
    );
    expect(warned[0]).toMatch(/already exists/);
    expect(result.summary).not.toContain('in the artifact');
  }, 300_000);

  it('without the artifact service (no runtime token or results URL): a warning, the job succeeds', async () => {
    const requests = artifacts.requests.length;
    const result = await measure({});
    expect(result.code, actionLog(result)).toBe(0);
    expect(artifacts.requests).toHaveLength(requests);
    const warned = warnings(result).filter((w) => /artifact/.test(w));
    expect(warned).toEqual([
      "the HTML page could not be put in the job's artifact: the artifact service is not available: ACTIONS_RUNTIME_TOKEN and ACTIONS_RESULTS_URL are not set (the runner gives them to a job on GitHub Actions). The job goes on; the pages are in the workspace beside the reports.",
    ]);
    expect(result.summary).not.toContain('in the artifact');
  }, 300_000);
});
