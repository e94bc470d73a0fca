import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GATE_QUERY } from '../../src/simulated/model.js';
import { type ActionWorld, actionLog, startActionWorld } from '../fakes/action-world.js';
import { CLAUDE_BIN } from '../fakes/claude-env.js';
import { evalsJson, installNode24, pullRequestPayload, runAction, skillFile } from './harness.js';

/**
 * The bundled Action ends as soon as its work is done: a CI step that lingers costs every run. It
 * used to linger 0.1–0.4 s after its last line with no handle open: V8 recompiled the bundled
 * undici's WebAssembly HTTP parser with TurboFan, in the background, after the three REST calls of
 * the PR comment, and Node waited for that compile before exiting (src/action/wasm-tiering.ts).
 *
 * Each run is a pull request measured paired, with its comment posted, under this process's Node
 * and under Node 24 (action.yml `using: node24`), with two instruments on Node's own command line:
 * - `--trace-wasm-compilation-times`, which prints one line per compiled wasm function: the
 *   parser is compiled (Liftoff lines), and nothing is compiled with TurboFan;
 * - a `--require` probe that lists, when the event loop has emptied, the handles and requests still
 *   open besides stdout and stderr: none. The probe's line also proves the process ended by
 *   emptying its loop, not by a `process.exit` (which skips `beforeExit`).
 * No time is asserted; `npm run bench:action` prints the "last line → exit" figure.
 */

const TOKEN = 'ghs_actions_token_for_exit';
const SKILL = '.claude/skills/tiny/SKILL.md';
const PROBE = `const { writeSync } = require('node:fs');
process.on('beforeExit', () => {
  const stdio = new Set([process.stdout, process.stderr]);
  const handles = process._getActiveHandles().filter((h) => !stdio.has(h)).map((h) => h.constructor.name);
  const requests = process._getActiveRequests().map((r) => r.constructor.name);
  writeSync(2, 'exit-probe: ' + JSON.stringify({ handles, requests }) + '\\n');
});
`;

let world: ActionWorld;
let probe: string;
let base: string;
let head: string;
let pr = 0;

beforeAll(async () => {
  world = await startActionWorld({
    name: 'exit-e2e',
    tokens: { [TOKEN]: { login: 'github-actions[bot]', type: 'Bot', installation: true } },
    script: (req) =>
      req.query !== GATE_QUERY && req.query.startsWith('pos') ? { kind: 'skill' } : undefined,
  });
  probe = path.join(world.work, 'exit-probe.cjs');
  await writeFile(probe, PROBE);
  const { repo } = world;
  await repo.commit('Initial', { 'README.md': '# skills\n' });
  base = await repo.commit('Add tiny', {
    [SKILL]: skillFile('tiny', 'Say hello in the tiny way. Use when the user wants a tiny greeting.'),
    '.claude/skills/tiny/evals.json': evalsJson([
      { query: 'pos: say hello tinily', should_trigger: true },
      { query: 'neg: what time is it', should_trigger: false },
    ]),
  });
  repo.git('checkout', '-q', '-b', 'reword');
  head = await repo.commit('Reword tiny', {
    [SKILL]: skillFile('tiny', 'Greet the user the tiny way. Use when asked for a tiny hello.'),
  });
});

afterAll(async () => {
  await world?.close();
});

const NODES: { label: string; node: () => string }[] = [
  { label: `this process's Node (${process.version})`, node: () => process.execPath },
  ...(process.version.startsWith('v24.') ? [] : [{ label: 'Node 24', node: installNode24 }]),
];

describe.each(NODES)('the Action under $label', ({ node }) => {
  it('posts its comment, compiles no wasm with TurboFan, and leaves no handle open', {
    timeout: 300_000,
  }, async () => {
    pr += 1;
    await world.freshJob();
    const result = await runAction({
      node: node(),
      nodeArgs: ['--trace-wasm-compilation-times', '--require', probe],
      cwd: world.repo.dir,
      eventName: 'pull_request',
      payload: pullRequestPayload({ number: pr, baseSha: base, headSha: head, headRef: 'reword' }),
      inputs: {
        'anthropic-api-key': 'sk-test',
        'github-token': TOKEN,
        'claude-path': CLAUDE_BIN,
        baseline: 'measure',
        runs: '1',
        timeout: '30',
      },
      env: world.env({ GITHUB_SHA: head, GITHUB_REF: `refs/pull/${pr}/merge` }),
    });
    expect(result.code, actionLog(result)).toBe(0);
    // The REST calls that warm the parser happened: the comment is there.
    expect(world.github.comments(pr), actionLog(result)).toHaveLength(1);

    const compiled = result.stdout.split('\n').filter((l) => /^Compiled function .* using /.test(l));
    // The trace works and the parser was compiled: otherwise "no TurboFan" would prove nothing.
    expect(
      compiled.some((l) => l.includes(' using Liftoff')),
      actionLog(result),
    ).toBe(true);
    expect(compiled.filter((l) => l.includes(' using TurboFan'))).toEqual([]);

    const probed = result.stderr.split('\n').filter((l) => l.startsWith('exit-probe: '));
    expect(probed, actionLog(result)).toEqual(['exit-probe: {"handles":[],"requests":[]}']);
  });
});
