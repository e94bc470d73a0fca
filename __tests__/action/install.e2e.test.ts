import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AGENTS } from '../../src/agents/registry.js';
import { type ActionWorld, startActionWorld } from '../fakes/action-world.js';
import { startCacheService } from '../fakes/cache-service.js';
import { CLAUDE_BIN } from '../fakes/claude-env.js';
import { writeFakeNpm } from '../fakes/fake-npm.js';
import { loadOwnStub } from '../fakes/query-stub.js';
import { type ActionResult, evalsJson, pullRequestPayload, runAction, skillFile } from './harness.js';

/**
 * Getting the CLI without `claude-path`: npm into a private prefix, saved to the Actions cache, and
 * on the next job restored from it without npm. The `npm` here is a tiny script on PATH (the
 * registry is not reachable offline, fakes/fake-npm.ts): it records its argv and links the
 * project's own pinned `claude` into `<prefix>/node_modules/.bin`, as the real package would. The prefix
 * then goes through the real @actions/cache client and the cache fake, and the restored `claude`
 * answers the gates and the measured runs.
 *
 * The real registry install (about 7 s here; the binary compresses to ~166 MB, above the 128 MiB
 * the cache client uploads in one request, so the fake, which has no block uploads, refuses to save
 * it) runs only with SKILLTRIGGER_TEST_NPM_INSTALL=1.
 */

let world: ActionWorld;
let npmLog: string;
let base: string;
let head: string;

beforeAll(async () => {
  world = await startActionWorld({
    name: 'install-e2e',
    script: (req) => (req.query.startsWith('tiny-pos') ? loadOwnStub(req) : undefined),
    tokens: { t: { login: 'github-actions[bot]', type: 'Bot', installation: true } },
  });
  npmLog = path.join(world.work, 'npm.log');
  await writeFakeNpm(path.join(world.work, 'bin'), 'claude');
  base = await world.repo.commit('Add tiny', {
    'tiny/SKILL.md': skillFile('tiny', 'Say hello in the tiny way.'),
    'tiny/evals.json': evalsJson([
      { query: 'tiny-pos: say hello tinily', should_trigger: true },
      { query: 'tiny-neg: what time is it', should_trigger: false },
    ]),
  });
  head = await world.repo.commit('Reword tiny', {
    'tiny/SKILL.md': skillFile('tiny', 'Greet the user the tiny way.'),
  });
});

afterAll(async () => {
  await world?.close();
});

beforeEach(async () => {
  // A new job: the runner's temp folder is empty again, and the checkout is fresh (no cache folder).
  await world.freshJob();
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
    cwd: world.repo.dir,
    eventName: 'pull_request',
    payload: pullRequestPayload({ number: 1, baseSha: base, headSha: head, headRef: 'tiny' }),
    inputs: {
      'anthropic-api-key': 'sk-test',
      'github-token': 't',
      runs: '1',
      baseline: 'none',
      comment: 'false',
    },
    env: world.env({
      PATH: usePath ? `${path.join(world.work, 'bin')}:${process.env.PATH}` : (process.env.PATH ?? ''),
      FAKE_NPM_LOG: npmLog,
      FAKE_NPM_CLAUDE: CLAUDE_BIN,
      ...extraEnv,
    }),
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

const CLI_KEY = `skilltrigger-claude-${AGENTS.claude.pinnedVersion}-linux-${process.arch}`;

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
      path.join(world.repo.dir, '.skilltrigger-cache', 'claude-code', AGENTS.claude.pinnedVersion),
      '--no-save',
      '--no-audit',
      '--no-fund',
      '--no-package-lock',
      '--loglevel=error',
      '--ignore-scripts=false',
      '--include=optional',
      `@anthropic-ai/claude-code@${AGENTS.claude.pinnedVersion}`,
    ]);
    expect(world.cache.entries.map((e) => e.key)).toContain(CLI_KEY);
    expect(result.stdout).toContain(`saved the install to the Actions cache as ${CLI_KEY}`);
    expect(world.repo.git('status', '--porcelain')).not.toContain('.skilltrigger-cache');
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
