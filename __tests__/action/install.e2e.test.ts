import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { PINNED_CLAUDE_CODE_VERSION } from '../../src/action/constants.js';
import { type SimulatedModel, startSimulatedModel } from '../../src/simulated/model.js';
import { type CacheServiceFake, startCacheService } from '../fakes/cache-service.js';
import { CLAUDE_BIN } from '../fakes/claude-env.js';
import { type GitHubApiFake, startGitHubApi } from '../fakes/github-api.js';
import { loadOwnStub } from '../fakes/query-stub.js';
import {
  type ActionResult,
  evalsJson,
  GitRepo,
  pullRequestPayload,
  runAction,
  skillFile,
} from './harness.js';

/**
 * Getting the CLI without `claude-path`: npm into a private prefix, saved to the Actions cache, and
 * on the next job restored from it without npm. The `npm` here is a tiny script on PATH (the
 * registry is not reachable offline): it records its argv and links the project's own pinned
 * `claude` into `<prefix>/node_modules/.bin`, as the real package's postinstall would. The prefix
 * then goes through the real @actions/cache client and the cache fake, and the restored `claude`
 * answers the gates and the measured runs.
 *
 * The real registry install (about 7 s here; the binary compresses to ~166 MB, above the 128 MiB
 * the cache client uploads in one request, so the fake, which has no block uploads, refuses to save
 * it) runs only with SKILLTRIGGER_TEST_NPM_INSTALL=1.
 */

const FAKE_NPM = `#!/usr/bin/env node
const fs = require('node:fs');
const path = require('node:path');
const args = process.argv.slice(2);
fs.appendFileSync(process.env.FAKE_NPM_LOG, JSON.stringify(args) + '\\n');
if (process.env.FAKE_NPM_FAIL === '1') {
  console.error('npm error 404 Not Found - GET https://registry.npmjs.org/@anthropic-ai%2fclaude-code');
  process.exit(1);
}
const prefix = args[args.indexOf('--prefix') + 1];
const bin = path.join(prefix, 'node_modules', '.bin');
fs.mkdirSync(bin, { recursive: true });
fs.symlinkSync(process.env.FAKE_NPM_CLAUDE, path.join(bin, 'claude'));
`;

let work: string;
let repo: GitRepo;
let model: SimulatedModel;
let github: GitHubApiFake;
let cache: CacheServiceFake;
let npmLog: string;
let runnerTemp: string;
let base: string;
let head: string;

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'skilltrigger-install-e2e-'));
  runnerTemp = path.join(work, 'runner-temp');
  npmLog = path.join(work, 'npm.log');
  await mkdir(path.join(work, 'bin'));
  await mkdir(path.join(work, 'home'));
  await writeFile(path.join(work, 'bin', 'npm'), FAKE_NPM);
  await chmod(path.join(work, 'bin', 'npm'), 0o755);
  repo = await GitRepo.create(path.join(work, 'repo'));
  base = await repo.commit('Add tiny', {
    'tiny/SKILL.md': skillFile('tiny', 'Say hello in the tiny way.'),
    'tiny/evals.json': evalsJson([
      { query: 'tiny-pos: say hello tinily', should_trigger: true },
      { query: 'tiny-neg: what time is it', should_trigger: false },
    ]),
  });
  head = await repo.commit('Reword tiny', {
    'tiny/SKILL.md': skillFile('tiny', 'Greet the user the tiny way.'),
  });
  model = await startSimulatedModel({
    script: (req) => (req.query.startsWith('tiny-pos') ? loadOwnStub(req) : undefined),
  });
  github = await startGitHubApi({
    tokens: { t: { login: 'github-actions[bot]', type: 'Bot', installation: true } },
  });
  cache = await startCacheService();
});

afterAll(async () => {
  await model?.close();
  await github?.close();
  await cache?.close();
  await rm(work, { recursive: true, force: true });
});

beforeEach(async () => {
  // A new job: the runner's temp folder is empty again, and the checkout is fresh (no cache folder).
  await rm(runnerTemp, { recursive: true, force: true });
  await mkdir(runnerTemp, { recursive: true });
  await rm(path.join(repo.dir, '.skilltrigger-cache'), { recursive: true, force: true });
  await writeFile(npmLog, '');
});

/** The host's network settings (proxy, extra CA certificates) that a real npm install needs. */
function networkEnv(): Record<string, string> {
  const names =
    /^(NODE_EXTRA_CA_CERTS|SSL_CERT_FILE|SSL_CERT_DIR|HTTPS?_PROXY|NO_PROXY|https?_proxy|no_proxy)$/;
  return Object.fromEntries(
    Object.entries(process.env).flatMap(([k, v]) => (names.test(k) && v !== undefined ? [[k, v]] : [])),
  );
}

async function job(extraEnv: Record<string, string> = {}, usePath = true): Promise<ActionResult> {
  return runAction({
    cwd: repo.dir,
    eventName: 'pull_request',
    payload: pullRequestPayload({ number: 1, baseSha: base, headSha: head, headRef: 'tiny' }),
    inputs: {
      'anthropic-api-key': 'sk-test',
      'github-token': 't',
      runs: '1',
      baseline: 'none',
      comment: 'false',
    },
    env: {
      PATH: usePath ? `${path.join(work, 'bin')}:${process.env.PATH}` : (process.env.PATH ?? ''),
      HOME: path.join(work, 'home'),
      ...github.env(),
      ...cache.env(),
      RUNNER_OS: 'Linux',
      RUNNER_TEMP: runnerTemp,
      ANTHROPIC_BASE_URL: model.url,
      SKILLTRIGGER_SIMULATED: '1',
      FAKE_NPM_LOG: npmLog,
      FAKE_NPM_CLAUDE: CLAUDE_BIN,
      ...extraEnv,
    },
  });
}

async function npmCalls(): Promise<string[][]> {
  const text = await readFile(npmLog, 'utf8');
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const parsed: unknown = JSON.parse(line);
      if (!Array.isArray(parsed)) throw new Error(`not an argv: ${line}`);
      return parsed.map(String);
    });
}

const CLI_KEY = `skilltrigger-claude-${PINNED_CLAUDE_CODE_VERSION}-linux-${process.arch}`;

describe('installing the Claude CLI', () => {
  it('installs the pinned version with npm into a private prefix and saves it to the cache', {
    timeout: 180_000,
  }, async () => {
    const result = await job();
    expect(result.code, result.stdout + result.stderr).toBe(0);
    const calls = await npmCalls();
    expect(calls).toHaveLength(1);
    expect(calls[0]).toEqual([
      'install',
      '--prefix',
      // Inside the workspace: the cache path is then relative, the same on every runner.
      path.join(repo.dir, '.skilltrigger-cache', 'claude-code', PINNED_CLAUDE_CODE_VERSION),
      '--no-save',
      '--no-audit',
      '--no-fund',
      '--no-package-lock',
      '--loglevel=error',
      '--ignore-scripts=false',
      '--include=optional',
      `@anthropic-ai/claude-code@${PINNED_CLAUDE_CODE_VERSION}`,
    ]);
    expect(cache.entries.map((e) => e.key)).toContain(CLI_KEY);
    expect(result.stdout).toContain(`saved the install to the Actions cache as ${CLI_KEY}`);
    expect(repo.git('status', '--porcelain')).not.toContain('.skilltrigger-cache');
    expect(result.stdout).toMatch(/ok · claude 2\.1\.328/);
  });

  it('the next job restores it from the cache and never calls npm', { timeout: 180_000 }, async () => {
    const result = await job({ FAKE_NPM_FAIL: '1' });
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(await npmCalls()).toEqual([]);
    expect(result.stdout).toContain(`restored from the Actions cache (${CLI_KEY})`);
    expect(result.stdout).toMatch(/query 1\/2 · run 1\/1 · triggered/);
  });

  it('an install that fails is the cli gate: exit 2 with npm’s reason', { timeout: 180_000 }, async () => {
    const empty = await startCacheService();
    try {
      const result = await job({ FAKE_NPM_FAIL: '1', ...empty.env() });
      expect(result.code).toBe(2);
      expect(result.failure).toMatch(
        /^gate cli failed: npm could not install @anthropic-ai\/claude-code@2\.1\.328 \(exit 1\)/,
      );
      expect(result.summary).toContain('Nothing was measured: a gate failed.');
    } finally {
      await empty.close();
    }
  });

  it.runIf(process.env.SKILLTRIGGER_TEST_NPM_INSTALL === '1')(
    'installs the real package from the npm registry (opt-in: network)',
    { timeout: 600_000 },
    async () => {
      const empty = await startCacheService();
      try {
        const result = await job({ ...empty.env(), ...networkEnv() }, false);
        const log = result.stdout
          .split('\n')
          .filter((l) => !l.startsWith('::debug::'))
          .join('\n');
        expect(result.code, log + result.stderr).toBe(0);
        expect(result.stdout).toMatch(/ok · claude 2\.1\.328/);
        // What became of saving ~166 MB compressed to a fake without block uploads: logged, never fatal.
        expect(result.stdout).toMatch(/saved the install to the Actions cache|the install was not cached/);
      } finally {
        await empty.close();
      }
    },
  );
});
