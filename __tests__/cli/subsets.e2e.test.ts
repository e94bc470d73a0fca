import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportSchema } from '../../src/schemas/report.js';
import { CLAUDE_BIN, type ClaudeEnv } from '../fakes/claude-env.js';
import { type CliWorld, runCli, startCliWorld } from '../fakes/cli.js';

/**
 * `run` and `check` on an eval set that marks prompts needs_context and holds queries out: the
 * real CLI process and the real claude binary against the simulated model, scripted per query
 * (no chance involved), so every number printed is known in advance.
 */

let world: CliWorld;
let work: string;
let skillDir: string;
let claude: ClaudeEnv;

/** p1–p4 load the skill; p5, p6 (they presuppose a session) and every negative do not. */
const ITEMS = [
  { query: 'sub-p1 write the handoff notes', should_trigger: true },
  { query: 'sub-p2 leave a resume note for tomorrow', should_trigger: true },
  { query: 'sub-p3 hand this task to a fresh session', should_trigger: true, split: 'holdout' },
  { query: 'sub-p4 write HANDOFF.md before I close', should_trigger: true, split: 'holdout' },
  { query: 'sub-p5 dump the state of this refactor', should_trigger: true, needs_context: true },
  { query: 'sub-p6 write up what we did today', should_trigger: true, needs_context: true },
  { query: 'sub-n1 summarise this PDF', should_trigger: false },
  { query: 'sub-n2 write a changelog entry', should_trigger: false },
  { query: 'sub-n3 read the handoff in docs', should_trigger: false, split: 'holdout' },
  { query: 'sub-n4 draft the on-call handover', should_trigger: false, split: 'holdout' },
];
const LOADS = new Set(['sub-p1', 'sub-p2', 'sub-p3', 'sub-p4']);

beforeAll(async () => {
  world = await startCliWorld({
    name: 'subsets-e2e',
    model: {
      seed: 3,
      script: (req) => (LOADS.has(req.query.split(' ')[0] ?? '') ? { kind: 'skill' } : { kind: 'text' }),
    },
  });
  ({ work, claude } = world);
  skillDir = path.join(work, 'handoff');
  await mkdir(skillDir);
  await writeFile(
    path.join(skillDir, 'SKILL.md'),
    '---\nname: handoff\ndescription: Write HANDOFF.md so a fresh session can resume the work\n---\n\nBody.\n',
  );
});

afterAll(async () => {
  await world?.close();
});

async function evalFile(name: string, items: readonly object[]): Promise<string> {
  const file = path.join(work, name);
  await writeFile(file, JSON.stringify(items, null, 2));
  return file;
}

describe('run with annotated prompts and a holdout', () => {
  it('prints the positives twice and train and holdout apart, and writes them into the report', async () => {
    const file = await evalFile('annotated.json', ITEMS);
    const out = path.join(work, 'out');
    const r = await runCli(
      ['run', '--skill', skillDir, '--eval', file, '--runs', '1', '--out', out, '--claude', CLAUDE_BIN],
      { env: claude.env },
    );
    expect(r.stderr).not.toMatch(/unexpected error/);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      'positives triggered 4/6 · 4/4 without the 2 that presuppose a session · negatives fired 0/4 · 0 timeouts, 0 errors counted apart · 8/10 queries pass\n' +
        'train (6 queries): positives triggered 2/4 (50%, 95% interval 15–85%), 2/4 pass · negatives fired 0/2 (0%, 95% interval 0–66%), 2/2 pass\n' +
        'holdout (4 queries): positives triggered 2/2 (100%, 95% interval 34–100%), 2/2 pass · negatives fired 0/2 (0%, 95% interval 0–66%), 2/2 pass\n',
    );
    const json = (await readdir(out)).find((f) => f.endsWith('.json')) ?? '';
    const report = reportSchema.parse(JSON.parse(await readFile(path.join(out, json), 'utf8')));
    expect(report.candidate.subsets?.withoutContext?.positives).toEqual({
      queries: 4,
      passed: 4,
      triggered: 4,
      runs: 4,
    });
    expect(report.candidate.subsets?.holdout?.queries).toBe(4);
    const markdown = await readFile(path.join(out, json.replace(/\.json$/, '.md')), 'utf8');
    expect(markdown).toContain('## Train and holdout');
    expect(markdown).toContain('| holdout | 4 | 2/2 (100%) | 34–100% | 2/2 | 0/2 (0%) | 0–66% | 2/2 |');
  }, 300_000);
});

describe('check on annotations', () => {
  it('hints at prompts that read like they presuppose a session, and at a thin holdout, as warnings', async () => {
    const unmarked = ITEMS.map(({ needs_context: _n, ...rest }: { needs_context?: boolean }) => rest);
    const file = await evalFile('unmarked.json', unmarked);
    const r = await runCli(['check', '--eval', file], { env: claude.env });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      'warn  ' +
        file +
        ': 2 positive prompt(s) read like they presuppose an earlier session: q5 ("this refactor"), q6 ("what we did").',
    );
    expect(r.stdout).toContain('[presupposes-session]');
    expect(r.stdout).toMatch(/only 2 held-out positives and 2 held-out negatives: .* \[small-holdout\]/);
    // Once marked, the hint is gone.
    const marked = await runCli(['check', '--eval', await evalFile('marked.json', ITEMS)], {
      env: claude.env,
    });
    expect(marked.stdout).not.toContain('presupposes-session');
  });

  it('refuses a needs_context that is not a boolean (exit 1), naming the entry and the fix', async () => {
    const bad = ITEMS.map((i, n) => (n === 4 ? { ...i, needs_context: 'yes' } : i));
    const file = await evalFile('bad.json', bad);
    const r = await runCli(['check', '--eval', file], { env: claude.env });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(
      `fail  ${file}:line 20 (entry #5): needs_context is the string "yes", not a boolean. Fix: write true without quotes`,
    );
  });
});
