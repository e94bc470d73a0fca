import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareReport } from '../../src/compare/compare.js';
import { reportSchema } from '../../src/schemas/report.js';
import { type Script, type SimulatedModel, seededRandom } from '../../src/simulated/model.js';
import { CLAUDE_BIN, type ClaudeEnv } from '../fakes/claude-env.js';
import { type CliWorld, runCli, startCliWorld } from '../fakes/cli.js';

/**
 * Paired mode through the real claude binary: one invocation measures a baseline and a candidate
 * description interleaved, writes one paired report, and `compare` renders it directly.
 */
const BASE = 'Write HANDOFF.md summarising the session so a fresh session can resume';
const WORSE = 'Documentation helper for markdown files';

let world: CliWorld;
let work: string;
let skillDir: string;
let model: SimulatedModel;
let claude: ClaudeEnv;
let script: Script = () => undefined;

beforeAll(async () => {
  world = await startCliWorld({
    name: 'paired-e2e',
    model: { seed: 5, script: (req, ctx) => script(req, ctx) },
  });
  ({ work, model, claude } = world);
  skillDir = path.dirname(
    await world.write('handoff/SKILL.md', `---\nname: handoff\ndescription: ${BASE}\n---\n`),
  );
});

afterAll(async () => {
  await world?.close();
});

/**
 * Four queries a class at the default two runs (32 runs, both sides): the draws are seeded, so
 * each label is the same on every run, and the A/B one is far from the line (positives 8/8 → 1/8,
 * p = 0.002 against 0.025; the hit drop of 7 is beyond the seeds' band of 2).
 */
const items = [
  ...Array.from({ length: 4 }, (_, i) => ({ query: `paired-pos ${i}`, should_trigger: true })),
  ...Array.from({ length: 4 }, (_, i) => ({ query: `paired-neg ${i}`, should_trigger: false })),
];

/**
 * The simulated model's truth, per description: how often a positive and a negative load the stub.
 * Each run draws from its own stream keyed by the description, so both sides get independent draws.
 */
function byDescription(rates: Record<string, { pos: number; neg: number }>): Script {
  const seen = new Map<string, number>();
  return (req) => {
    const stub = req.stub;
    if (!stub || req.followUp) return undefined;
    const rate = rates[stub.description];
    if (!rate) return { kind: 'text' };
    const key = `${stub.description}\n${req.query}`;
    const n = seen.get(key) ?? 0;
    seen.set(key, n + 1);
    const p = req.query.startsWith('paired-pos') ? rate.pos : rate.neg;
    return seededRandom(17, key, n)() < p ? { kind: 'skill' } : { kind: 'text' };
  };
}

async function pairedRun(name: string, candidate: string) {
  const file = await world.write(`${name}.json`, JSON.stringify(items));
  const out = path.join(work, `out-${name}`);
  const before = model.requests.length;
  const r = await runCli(
    [
      'run',
      '--skill',
      skillDir,
      '--eval',
      file,
      '--description',
      candidate,
      '--baseline-description',
      BASE,
      '--out',
      out,
      '--claude',
      CLAUDE_BIN,
    ],
    { env: claude.env },
  );
  const json = (await readdir(out)).find((f) => f.endsWith('.json')) ?? '';
  const report = reportSchema.parse(JSON.parse(await readFile(path.join(out, json), 'utf8')));
  const order = model.requests
    .slice(before)
    .filter((q) => q.turn === 1 && q.view?.query.startsWith('paired-'))
    .map((q) => (q.view?.stub?.description === BASE ? 'base' : 'cand'));
  return { r, report, out, json, order };
}

describe('paired mode', () => {
  it('A/A: the same text on both sides is labelled noise', async () => {
    script = byDescription({ [BASE]: { pos: 0.85, neg: 0.15 } });
    const { r, report, order, out, json } = await pairedRun('aa', BASE);
    expect(r.code).toBe(0);
    expect(order.length).toBe(32);
    expect(report.baseline?.description.sha256).toBe(report.candidate.description.sha256);
    const c = compareReport(report);
    console.log(
      `A/A paired: positives ${JSON.stringify(c.positives.base)} → ${JSON.stringify(c.positives.cand)} ${c.positives.label}; negatives ${JSON.stringify(c.negatives.base)} → ${JSON.stringify(c.negatives.cand)} ${c.negatives.label}`,
    );
    expect(c.label).toBe('noise');
    expect(r.stdout).toMatch(/baseline: +positives triggered \d+\/8/);
    // `compare` renders the paired report directly.
    const cmp = await runCli(['compare', path.join(out, json)], { env: claude.env });
    expect(cmp.code).toBe(0);
    expect(cmp.stdout).toMatch(/noise/);
  }, 600_000);

  it('A/B: a candidate the model loads less on positives is labelled a regression; runs interleave base, cand, cand, base', async () => {
    script = byDescription({ [BASE]: { pos: 0.9, neg: 0.1 }, [WORSE]: { pos: 0.2, neg: 0.1 } });
    const { r, report, order } = await pairedRun('ab', WORSE);
    expect(r.code).toBe(0);
    // Interleaved, so neither side gets the better minutes.
    expect(order.slice(0, 8)).toEqual(['base', 'cand', 'cand', 'base', 'base', 'cand', 'cand', 'base']);
    expect(order.length).toBe(32);
    const c = compareReport(report);
    const positives = c.positives;
    console.log(
      `A/B paired: positives ${JSON.stringify(positives?.base)} → ${JSON.stringify(positives?.cand)}, p_bad ${positives?.pBad}`,
    );
    expect(positives?.label).toBe('regression');
    expect(c.label).toBe('regression');
    expect(r.stdout).toMatch(/regression/);
  }, 600_000);
});
