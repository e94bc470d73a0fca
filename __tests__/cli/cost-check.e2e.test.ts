import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatUsd } from '../../src/cost/cost.js';
import { reportSchema } from '../../src/schemas/report.js';
import { type CliWorld, runCli, startCliWorld } from '../fakes/cli.js';

/**
 * The price table checked against the CLI's own total_cost_usd, end to end: the real claude binary
 * prices the runs that reach their result event from its own price list for the model id, so a
 * table that agrees with that list says so, and one with a wrong output rate warns with both figures.
 */
const HAIKU = 'claude-haiku-4-5';

let world: CliWorld;
let skillDir: string;
let evalPath: string;

beforeAll(async () => {
  // Text answers: every run ends, so every run reaches its result event and carries the CLI's figure.
  world = await startCliWorld({
    name: 'cost-check-e2e',
    model: { seed: 28, script: () => ({ kind: 'text' }) },
  });
  skillDir = path.dirname(
    await world.write(
      'handoff/SKILL.md',
      '---\nname: handoff\ndescription: Write HANDOFF.md summarising the session so a fresh session can resume\n---\n\nBody.\n',
    ),
  );
  evalPath = await world.write(
    'cost-check.json',
    JSON.stringify([
      { query: 'write the handoff notes for tomorrow', should_trigger: true },
      { query: 'rename the variable x to count in the whole project, every file', should_trigger: false },
    ]),
  );
});

afterAll(async () => {
  await world?.close();
});

async function readReport(out: string) {
  const json = (await readdir(out)).filter((f) => f.endsWith('.json'));
  expect(json).toHaveLength(1);
  const file = path.join(out, json[0] ?? '');
  const markdown = await readFile(file.replace(/\.json$/, '.md'), 'utf8');
  const html = await readFile(file.replace(/\.json$/, '.html'), 'utf8');
  return { report: reportSchema.parse(JSON.parse(await readFile(file, 'utf8'))), markdown, html };
}

/** A --prices table with the CLI's own price for claude-haiku-4-5, but output at $500/M instead of $5/M. */
function wrongOutputPrices(): Promise<string> {
  return world.write(
    'wrong-output.json',
    JSON.stringify({
      source: 'test: a wrong output rate',
      asOf: '2026-12-01',
      models: { [HAIKU]: { input: 1, output: 500, cacheWrite: 1.25, cacheRead: 0.1 } },
    }),
  );
}

const run = (args: string[]) =>
  runCli(['run', '--skill', skillDir, '--eval', evalPath, '--runs', '2', '--model', HAIKU, ...args], {
    env: world.claude.env,
  });

describe('the cost check', () => {
  it('with the default table: one cost, checked against the CLI on every run, no warning', async () => {
    const out = path.join(world.work, 'out-agree');
    const r = await run(['--out', out]);
    expect(r.code).toBe(0);
    const { report, markdown } = await readReport(out);
    const check = report.candidate.cost?.check;
    expect(check?.runs).toBe(4);
    expect(check?.models.map((m) => [m.model, m.differs])).toEqual([[HAIKU, false]]);
    expect(r.stdout).toMatch(
      /^cost: \$[\d.]+ from the price table · checked against the CLI's own figure on 4 runs · /m,
    );
    expect(r.stderr).not.toContain('total_cost_usd');
    expect(markdown).toContain("checked against the CLI's own figure on 4 runs");
    expect(markdown).not.toContain('Warning');
  });

  it('a --prices table with a wrong output rate makes run warn with both figures, naming the model and the rate', async () => {
    const prices = await wrongOutputPrices();
    const out = path.join(world.work, 'out-disagree');
    const r = await run(['--prices', prices, '--out', out]);
    expect(r.code).toBe(0);
    const { report, markdown, html } = await readReport(out);
    const own = report.candidate.cost?.check?.models[0];
    expect(own?.model).toBe(HAIKU);
    expect(own?.runs).toBe(4);
    expect(own?.differs).toBe(true);
    expect(own?.tableUsd).toBeGreaterThan(own?.cliUsd ?? Number.POSITIVE_INFINITY);
    // The output rate is the one that fits (alone, or with rates the runs' tokens cannot tell apart).
    expect([own?.suspect?.rate, ...(own?.suspect?.alsoFits ?? [])]).toContain('output');
    const both = `differ for ${HAIKU}: ${formatUsd(own?.tableUsd ?? 0)} from the table, ${formatUsd(own?.cliUsd ?? 0)} from the CLI, over the 4 runs`;
    expect(r.stderr).toContain(`warning: the price table and the CLI's own total_cost_usd ${both}`);
    expect(r.stderr).toMatch(/output rate|fit the [a-z ]*output/);
    // The round trip reaches its result too: checked at the gates, before any measured run.
    expect(r.stderr).toContain(
      `warning: round trip: the price table and the CLI's own total_cost_usd differ for ${HAIKU}`,
    );
    expect(r.stdout).not.toContain('checked against');
    expect(markdown).toContain(`- **Warning:** the price table and the CLI's own total_cost_usd ${both}`);
    // The page says it too, in a banner before the numbers (the apostrophe escaped as the page escapes text).
    expect(html).toContain(
      `<div class="banner" role="alert"><strong>Warning:</strong> the price table and the CLI&#39;s own total_cost_usd ${both}`,
    );
  });

  it('improve warns as run does: at the round trip, and on the first measurement that differs', async () => {
    const prices = await wrongOutputPrices();
    const improveEval = await world.write(
      'cost-check-improve.json',
      JSON.stringify([
        { query: 'write the handoff notes for tomorrow', should_trigger: true },
        { query: 'rename the variable x to count in the whole project, every file', should_trigger: false },
        { query: 'leave a resume note for the next session', should_trigger: true, split: 'holdout' },
        { query: 'what is the capital of France', should_trigger: false, split: 'holdout' },
      ]),
    );
    const out = path.join(world.work, 'out-improve');
    // The model answers text to everything, the rewrite prompt included: no proposal, one iteration.
    const r = await runCli(
      ['improve', '--skill', skillDir, '--eval', improveEval, '--runs', '2', '--iterations', '1'].concat([
        '--model',
        HAIKU,
        '--prices',
        prices,
        '--out',
        out,
      ]),
      { env: world.claude.env },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(
      `warning: round trip: the price table and the CLI's own total_cost_usd differ for ${HAIKU}`,
    );
    // The original's 8 runs each reached their result: the first measurement warns, naming its phase, once.
    expect(r.stderr).toMatch(
      new RegExp(
        `warning: original: the price table and the CLI's own total_cost_usd differ for ${HAIKU}: \\$[\\d.]+ from the table, \\$[\\d.]+ from the CLI, over the 8 runs`,
      ),
    );
    expect(r.stderr.match(/warning: .*total_cost_usd/g)).toHaveLength(2);
  });
});
