import { execFile, execFileSync } from 'node:child_process';
import { readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeContext, parseContextText } from '../../src/inputs/context.js';
import { type Report, reportSchema } from '../../src/schemas/report.js';
import { CLAUDE_BIN } from '../fakes/claude-env.js';
import { type CliWorld, runCli, startCliWorld } from '../fakes/cli.js';

/**
 * `run --context <file>` through the real `claude` against the simulated model: every measured run
 * starts with the turns in its history (docs/context.md), the report holds the context's summary
 * and never its text, a transcript the real CLI wrote is accepted, a malformed file is refused
 * before anything is spent, and nothing of a context is left in HOME. The same through the real
 * `codex` (`--agent codex`): its runs resume a rollout in their throwaway CODEX_HOME.
 */
const CODEX_BIN = path.resolve('node_modules/.bin/codex');
const TURNS = [
  { role: 'user', content: 'The deploy script broke after the rename; please have a look at deploy.sh.' },
  { role: 'assistant', content: 'Found it: deploy.sh still sourced the old env file. Fixed and re-ran.' },
];

let world: CliWorld;
let skill: string;
let evalFile: string;

beforeAll(async () => {
  world = await startCliWorld({
    name: 'context-e2e',
    model: { script: (view) => (view.query.startsWith('hit') ? { kind: 'skill' } : { kind: 'text' }) },
  });
  skill = path.dirname(
    await world.write(
      'skills/handoff/SKILL.md',
      '---\nname: handoff\ndescription: Write HANDOFF.md for the next session\n---\n\nBody.\n',
    ),
  );
  evalFile = await world.write(
    'evals.json',
    JSON.stringify([
      { query: 'hit: write the handoff note now', should_trigger: true },
      { query: 'what does this regex match', should_trigger: false },
    ]),
  );
});

afterAll(async () => {
  await world?.close();
});

const run = (args: string[]) =>
  runCli(['run', '--skill', skill, '--eval', evalFile, '--runs', '1', '--claude', CLAUDE_BIN, ...args], {
    env: world.claude.env,
  });

async function readReport(out: string): Promise<{ report: Report; text: string }> {
  const [json] = (await readdir(out)).filter((f) => f.endsWith('.json'));
  const text = await readFile(path.join(out, json ?? ''), 'utf8');
  return { report: reportSchema.parse(JSON.parse(text)), text };
}

/** Every file under the throwaway HOME's `.claude/projects`. */
function transcriptsInHome(): string[] {
  const out = execFileSync('find', [path.join(world.claude.home, '.claude'), '-name', '*.jsonl'], {
    encoding: 'utf8',
  });
  return out.split('\n').filter(Boolean);
}

describe('run --context', () => {
  it('starts every measured run with the turns; the report says the summary, never the text', async () => {
    const file = await world.write('ctx.json', JSON.stringify(TURNS, null, 2));
    const out = path.join(world.work, 'out-json');
    const from = world.model.requests.length;
    const r = await run(['--context', file, '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('context: every run starts with 2 earlier turns');
    const { report, text } = await readReport(out);
    expect(report.settings.context).toEqual(describeContext(TURNS as never));
    expect(report.candidate.queries.map((q) => q.outcomes)).toEqual([['triggered'], ['not-triggered']]);
    expect(text).not.toContain('deploy.sh');
    const measured = world.model.requests
      .slice(from)
      .filter((r) => r.turn === 1 && r.view?.query !== undefined && /^(hit|what)/.test(r.view.query));
    expect(measured).toHaveLength(2);
    expect(measured.map((r) => r.view?.priorTurns)).toEqual([2, 2]);
    // The gates ran fresh: only the measured runs carry the context.
    const others = world.model.requests.slice(from).filter((r) => r.turn === 1 && !measured.includes(r));
    expect(others.every((r) => (r.view?.priorTurns ?? 0) === 0)).toBe(true);
    expect(transcriptsInHome()).toEqual([]);
  });

  it('accepts a session transcript the real claude wrote, read as its messages', async () => {
    // A session the CLI writes itself: `-p` with persistence, in a throwaway project of the test's HOME.
    const project = await world.dir('session-project');
    execFileSync('git', ['init', '-q', project]);
    // Not execFileSync: the simulated model answers from this process's event loop.
    await promisify(execFile)(CLAUDE_BIN, ['-p', 'Please tidy the deploy notes', '--output-format', 'json'], {
      cwd: project,
      env: world.claude.env,
      timeout: 60_000,
    });
    const [written] = transcriptsInHome();
    expect(written).toBeDefined();
    const session = await world.write('session.jsonl', await readFile(written ?? '', 'utf8'));
    await rm(path.dirname(written ?? ''), { recursive: true, force: true });
    const parsed = parseContextText(await readFile(session, 'utf8'), session);
    expect(parsed.format).toBe('claude-session');
    expect(parsed.turns[0]).toEqual({ role: 'user', content: 'Please tidy the deploy notes' });
    expect(parsed.turns).toHaveLength(2);

    const out = path.join(world.work, 'out-session');
    const r = await run(['--context', session, '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    const { report } = await readReport(out);
    expect(report.settings.context?.turns).toBe(2);
    expect(transcriptsInHome()).toEqual([]);
  });

  it('measures Codex with the turns too, decided on the answer to the query; nothing is left in HOME', async () => {
    const file = await world.write('ctx-codex.json', JSON.stringify(TURNS));
    const out = path.join(world.work, 'out-codex');
    const from = world.model.requests.length;
    const r = await runCli(
      [
        'run',
        '--agent',
        'codex',
        '--codex',
        CODEX_BIN,
        '--skill',
        skill,
        '--eval',
        evalFile,
        '--runs',
        '1',
      ].concat(['--context', file, '--out', out]),
      {
        env: {
          ...world.claude.env,
          OPENAI_BASE_URL: `${world.model.url}/v1`,
          OPENAI_API_KEY: 'sk-test-codex',
        },
      },
    );
    expect(r.code, r.stderr).toBe(0);
    const { report, text } = await readReport(out);
    expect(report.settings.context).toEqual(describeContext(TURNS as never));
    expect(report.candidate.queries.map((q) => q.outcomes)).toEqual([['triggered'], ['not-triggered']]);
    expect(text).not.toContain('deploy.sh');
    const measured = world.model.requests
      .slice(from)
      .filter(
        (q) => q.path.endsWith('/responses') && q.turn === 1 && /^(hit|what)/.test(q.view?.query ?? ''),
      );
    expect(measured.map((q) => q.view?.priorTurns)).toEqual([2, 2]);
    // Codex never wrote into the user's HOME: its runs had their own CODEX_HOME.
    expect(await readdir(world.claude.home)).not.toContain('.codex');
  });

  it("starts each entry's runs with its own context, a file or inline turns, warm standbys included", async () => {
    await world.write('own/contexts/deploy.json', JSON.stringify(TURNS));
    const four = [
      ...TURNS,
      { role: 'user', content: 'And the staging env?' },
      { role: 'assistant', content: 'Same fix.' },
    ];
    const own = await world.write(
      'own/evals.json',
      JSON.stringify([
        {
          query: 'hit: write the handoff from the file',
          should_trigger: true,
          context: 'contexts/deploy.json',
        },
        { query: 'what does the inline regex match', should_trigger: false, context: four },
        { query: 'hit: write the handoff fresh', should_trigger: true },
      ]),
    );
    const out = path.join(world.work, 'out-own');
    const from = world.model.requests.length;
    const r = await runCli(
      [
        'run',
        '--skill',
        skill,
        '--eval',
        own,
        '--runs',
        '2',
        '--standby',
        '2',
        '--claude',
        CLAUDE_BIN,
        '--out',
        out,
      ],
      { env: world.claude.env },
    );
    expect(r.code, r.stderr).toBe(0);
    const { report, text } = await readReport(out);
    expect(report.candidate.queries.map((q) => q.outcomes)).toEqual([
      ['triggered', 'triggered'],
      ['not-triggered', 'not-triggered'],
      ['triggered', 'triggered'],
    ]);
    // Neither the turns nor the file's path reach the report.
    for (const secret of ['deploy.sh', 'staging env', 'contexts/deploy.json'])
      expect(text).not.toContain(secret);
    const prior = new Map<string, number[]>();
    for (const q of world.model.requests.slice(from)) {
      const query = q.view?.query ?? '';
      if (q.turn !== 1 || !/^(hit|what)/.test(query)) continue;
      prior.set(query, [...(prior.get(query) ?? []), q.view?.priorTurns ?? -1]);
    }
    expect(Object.fromEntries(prior)).toEqual({
      'hit: write the handoff from the file': [2, 2],
      'what does the inline regex match': [4, 4],
      'hit: write the handoff fresh': [0, 0],
    });
    expect(transcriptsInHome()).toEqual([]);
  });

  it('refuses an entry whose context file is missing, with the entry and the fix, before any request', async () => {
    const own = await world.write(
      'gone/evals.json',
      JSON.stringify([
        { id: 'gone', query: 'hit: write it', should_trigger: true, context: 'contexts/gone.json' },
        { query: 'what does this match', should_trigger: false },
      ]),
    );
    const from = world.model.requests.length;
    const refused = await runCli(
      [
        'run',
        '--skill',
        skill,
        '--eval',
        own,
        '--runs',
        '1',
        '--claude',
        CLAUDE_BIN,
        '--out',
        path.join(world.work, 'out-gone'),
      ],
      { env: world.claude.env },
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`${own} (entry "gone"): its context "contexts/gone.json"`);
    expect(refused.stderr).toContain('Fix: write the path relative to the folder of the eval set');
    expect(world.model.requests.length).toBe(from);
  });

  it('refuses a malformed context with the file, the line and the fix, before any request', async () => {
    const file = await world.write(
      'bad.json',
      '[\n  {"role": "user", "content": "a"},\n  {"role": "robot", "content": "b"}\n]',
    );
    const from = world.model.requests.length;
    const r = await run(['--context', file, '--out', path.join(world.work, 'out-bad')]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${file}:line 3 (turn #2): has the role the string "robot". Fix: give "role"`);
    expect(world.model.requests.length).toBe(from);
  });
});
