import { cp, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { presupposingQueries } from '../../src/author/contexts.js';
import { parseEvalSet } from '../../src/inputs/eval-set.js';
import { isHoldout } from '../../src/inputs/weak-set.js';
import { type DescriptionRuleOptions, descriptionRule } from '../../src/simulated/description-script.js';
import type { SimulatedModel } from '../../src/simulated/model.js';
import { CLAUDE_BIN, type ClaudeEnv } from '../fakes/claude-env.js';
import { type CliWorld, REPO_ROOT, runCli, startCliWorld } from '../fakes/cli.js';

/**
 * `init` through the real claude binary: the drafting prompt reaches the simulated model as a
 * `claude -p` prompt, its rule-built (or scripted) answer becomes the eval set.
 */
let world: CliWorld;
let work: string;
let model: SimulatedModel;
let claude: ClaudeEnv;
let rule: DescriptionRuleOptions = {};

beforeAll(async () => {
  world = await startCliWorld({
    name: 'init-e2e',
    model: {
      script: (req, ctx) => descriptionRule(rule)(req, ctx),
      chunkDelayMs: 1,
    },
  });
  ({ work, model, claude } = world);
});

afterAll(async () => {
  await world?.close();
});

async function skillCopy(name: string): Promise<string> {
  const dir = path.join(work, name, 'handoff');
  await cp(path.join(REPO_ROOT, 'examples', 'handoff', 'SKILL.md'), path.join(dir, 'SKILL.md'));
  return dir;
}

const contextsRequests = (from: number) =>
  model.requests.slice(from).filter((r) => r.turn === 1 && r.view?.query.includes('<contexts>'));

const draftRequests = (from: number) =>
  model.requests.slice(from).filter((r) => r.turn === 1 && r.view?.query.includes('<eval_set>'));

describe('init', () => {
  it('writes a valid, stratified draft with a holdout, then refuses to overwrite it', async () => {
    rule = {};
    const dir = await skillCopy('ok');
    const before = model.requests.length;
    const r = await runCli(['init', '--skill', dir, '--claude', CLAUDE_BIN], { env: claude.env });
    expect(r.stderr).toMatch(/init: asking the default model for 20 prompts/);
    expect(r.code).toBe(0);
    const file = path.join(dir, 'evals', 'evals.json');
    const text = await readFile(file, 'utf8');
    const set = parseEvalSet(text, file, 'handoff');
    expect(set.items).toHaveLength(20);
    const held = set.items.filter(isHoldout);
    expect(held.filter((i) => i.shouldTrigger)).toHaveLength(4);
    expect(held.filter((i) => !i.shouldTrigger)).toHaveLength(4);
    expect(r.stdout).toMatch(
      /wrote .*evals\.json: 20 prompts \(10 should trigger, 10 near-misses\), 8 held out \(4 \+ 4\)/,
    );
    // check's findings on the draft: it loads, and has a holdout (no no-holdout warning).
    expect(r.stdout).toMatch(/ok {4}.*evals\.json: 20 queries \(10 positives, 10 negatives\)/);
    expect(r.stdout).not.toMatch(/no-holdout/);
    // The positives that read as if they presuppose a session carry a drafted context, marked.
    const json = JSON.parse(text) as Record<string, unknown>[];
    const cued = presupposingQueries(json as { query: string; should_trigger: boolean }[]);
    expect(cued.length).toBeGreaterThan(0);
    const withContext = set.items.filter((i) => i.context?.turns !== undefined);
    expect(withContext.map((i) => i.query)).toEqual(cued);
    for (const entry of json.filter((e) => cued.includes(String(e.query))))
      expect(entry).toMatchObject({ needs_context: true, context_drafted: true });
    expect(r.stderr).toContain(`init: drafted a context for each of the ${cued.length}`);
    expect(r.stdout).toContain(`${cued.length} prompts carry a drafted context ("context_drafted": true)`);
    // check then finds no prompt that presupposes a session without one.
    expect(r.stdout).not.toMatch(/presupposes-session/);
    const asked = contextsRequests(before);
    expect(asked).toHaveLength(1);
    expect(asked[0]?.view?.query).toContain(cued[0]);
    // A context's text is in the file only, never on the terminal.
    const first = withContext[0]?.context?.turns?.[0]?.content ?? '';
    expect(first.length).toBeGreaterThan(0);
    expect(r.stdout + r.stderr).not.toContain(first);
    // One drafting call, through claude, in a temp project (not the skill's folder), with the body.
    const calls = draftRequests(before);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.view?.cwd).toBeDefined();
    expect(calls[0]?.view?.cwd?.startsWith(dir)).toBe(false);
    expect(calls[0]?.view?.query).toContain('Write `HANDOFF.md` at the repository root');
    expect(calls[0]?.view?.query).not.toContain('sk-test');

    const again = model.requests.length;
    const second = await runCli(['init', '--skill', dir, '--claude', CLAUDE_BIN], { env: claude.env });
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(/evals\.json: already exists\. Fix: choose another file with --out/);
    // Refused before anything was spent.
    expect(model.requests.length).toBe(again);
    expect(await readFile(file, 'utf8')).toBe(text);
  }, 300_000);

  it('retries a malformed answer once and takes the second', async () => {
    rule = {
      draft: (_p, n) =>
        n === 0
          ? 'I cannot produce JSON today.'
          : `<eval_set>${JSON.stringify([
              { query: 'write the session notes', should_trigger: true },
              { query: 'write the tests', should_trigger: false },
              { query: 'leave a resume note', should_trigger: true },
              { query: 'resume from the note', should_trigger: false },
            ])}</eval_set>`,
    };
    const dir = await skillCopy('retry');
    const out = path.join(work, 'retry', 'draft.json');
    const before = model.requests.length;
    const r = await runCli(['init', '--skill', dir, '--out', out, '--count', '4', '--claude', CLAUDE_BIN], {
      env: claude.env,
    });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      /the answer is not a draft \(no <eval_set>…<\/eval_set> in the answer; the answer began: I cannot produce JSON today\.\); asking once more/,
    );
    expect(draftRequests(before)).toHaveLength(2);
    const set = parseEvalSet(await readFile(out, 'utf8'), out, 'handoff');
    expect(set.items.map((i) => i.query)).toContain('leave a resume note');
  }, 300_000);

  it('marks the presupposing prompts needs_context without a context when the contexts answer is not one', async () => {
    rule = {
      draft: () =>
        `<eval_set>${JSON.stringify([
          { query: 'write up what we did so far', should_trigger: true },
          { query: 'write the tests', should_trigger: false },
          { query: 'leave a resume note', should_trigger: true },
          { query: 'resume from the note', should_trigger: false },
        ])}</eval_set>`,
      contexts: () => 'I would rather not.',
    };
    const dir = await skillCopy('no-contexts');
    const out = path.join(work, 'no-contexts', 'draft.json');
    const r = await runCli(['init', '--skill', dir, '--out', out, '--count', '4', '--claude', CLAUDE_BIN], {
      env: claude.env,
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      'init: drafted a context for 0 of the 1 (no <contexts>…</contexts> in the answer); every one is marked needs_context',
    );
    const json = JSON.parse(await readFile(out, 'utf8')) as Record<string, unknown>[];
    expect(json.find((e) => e.query === 'write up what we did so far')).toEqual({
      query: 'write up what we did so far',
      should_trigger: true,
      split: expect.any(String),
      needs_context: true,
    });
    expect(json.filter((e) => 'needs_context' in e)).toHaveLength(1);
  }, 300_000);

  it('exits 1 after a second malformed answer, quoting its first line, and writes nothing', async () => {
    rule = { draft: () => 'Here you go:\n<eval_set>[{"query": "only one"}]</eval_set>' };
    const dir = await skillCopy('bad');
    const before = model.requests.length;
    const r = await runCli(['init', '--skill', dir, '--claude', CLAUDE_BIN], { env: claude.env });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /the model's answer is not a draft, twice: the JSON is not an array of \{"query", "should_trigger"\} items at \[0\]\[should_trigger\]: .*; the answer began: Here you go:\. Fix: retry/,
    );
    expect(draftRequests(before)).toHaveLength(2);
    await expect(stat(path.join(dir, 'evals', 'evals.json'))).rejects.toThrow(/ENOENT/);
  }, 300_000);
});
