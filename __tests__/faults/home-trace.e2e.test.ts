import { lstat, mkdir, readdir, readFile, readlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWNER_FILE } from '../../src/agents/process/temp-owner.js';
import { REWRITE_CLOSE, REWRITE_OPEN, readRewritePrompt } from '../../src/author/prompts.js';
import type { Behaviour, Script } from '../../src/simulated/model.js';
import { stubSkillName } from '../../src/simulated/request.js';
import { CLAUDE_BIN, type ClaudeEnv } from '../fakes/claude-env.js';
import { type CliWorld, runArgs, runCli, startCliWorld } from '../fakes/cli.js';
import { faultTitle } from './cases.js';
import { changes, tree } from './home-tree.js';
import {
  claudeProjectsLeft,
  killPids,
  processesInGroups,
  projectsLeft,
  scriptTable,
  waitFor,
} from './support.js';

/**
 * A `run` is SIGKILLed mid-measurement, and the next command finds its temp project and its
 * orphaned claude and removes both. Then a measurement leaves the user's HOME as it found it
 * (docs/home.md): a HOME with settings, a CLAUDE.md and another project's history is compared file
 * by file before and after `preflight`, `run` (with contexts too, a fill measured against a fresh
 * start, on claude and Codex, among a roster), `matrix` and
 * `improve` (its rewrite call included) through the real claude; only the plugin store the CLI rewrites at every start may differ. The
 * temp folder keeps nothing either.
 */

const CODEX_BIN = path.resolve('node_modules/.bin/codex');
const DESCRIPTION = 'Write HANDOFF.md summarising the session so a fresh session can resume the work';
/** The turns runs start with (docs/context.md): placed for each run, and gone with it. */
const CONTEXT = [
  { role: 'user', content: 'The deploy script broke after the rename.' },
  { role: 'assistant', content: 'Fixed deploy.sh: it sourced the old env file.' },
];
const table = new Map<string, Behaviour | Script>();
let world: CliWorld;
let claude: ClaudeEnv;
let work: string;
let skillDir: string;
const started: number[] = [];

/** The description improve's rewrite call proposes. */
const REWRITE = 'Writes the session handoff note so that the next session can pick the work up';

/** The table per query; improve's rewrite prompt (a text of its own) gets a fixed proposal. */
const script: Script = (req, ctx) =>
  readRewritePrompt(req.query) === undefined
    ? scriptTable(table)(req, ctx)
    : { kind: 'text', text: `${REWRITE_OPEN}${REWRITE}${REWRITE_CLOSE}` };

beforeAll(async () => {
  // One HOME for the file: each case compares it before and after its own commands.
  world = await startCliWorld({ name: 'home-trace', model: { script } });
  ({ work, claude } = world);
  skillDir = path.dirname(
    await world.write('handoff/SKILL.md', `---\nname: handoff\ndescription: ${DESCRIPTION}\n---\n\nBody.\n`),
  );
  // A HOME as a user has it: settings, a CLAUDE.md, another project's history.
  const config = path.join(claude.home, '.claude');
  await mkdir(path.join(config, 'projects', '-home-me-src-app', 'memory'), { recursive: true });
  await writeFile(path.join(config, 'settings.json'), '{"theme":"dark"}\n');
  await writeFile(path.join(config, 'CLAUDE.md'), '# My own notes\n');
  await writeFile(path.join(config, 'projects', '-home-me-src-app', 'session.jsonl'), '{"type":"user"}\n');
  await writeFile(path.join(config, 'projects', '-home-me-src-app', 'memory', 'MEMORY.md'), '- a note\n');
});

afterAll(async () => {
  killPids(started);
  await world?.close();
});

/** Starts claude once in this HOME if none ever did (the CLI makes its own files on a first start). */
async function warm(env: NodeJS.ProcessEnv, name: string): Promise<void> {
  if (await lstat(path.join(claude.home, '.claude.json')).catch(() => undefined)) return;
  const r = await runCli(['preflight', '--claude', CLAUDE_BIN, '--out', path.join(work, name)], { env });
  expect(r.code, r.stderr).toBe(0);
}

/** HOME and the temp folder hold exactly what they held, and no claude project of ours is left. */
async function unchanged(home: Map<string, string>, tmp: string, temp: Map<string, string>) {
  expect(changes(home, await tree(claude.home))).toEqual([]);
  expect(changes(temp, await tree(tmp))).toEqual([]);
  expect(await readdir(path.join(claude.home, '.claude', 'projects'))).toEqual(['-home-me-src-app']);
}

// First: its sweeping preflight is also the first start of claude in this HOME, which the HOME
// tests below would otherwise make just to let claude create its own files (see warm).
describe('a SIGKILL of skilltrigger', () => {
  it(faultTitle('sigkill-sweep'), async () => {
    const { tmp, env } = await world.tmpEnv('sigkill');
    const query = 'home-kill hangs forever';
    table.set(query, { kind: 'hang' });
    const evalFile = path.join(work, 'kill-evals.json');
    await writeFile(
      evalFile,
      JSON.stringify([
        // With a context: the kill lands while a resumed session's transcript is in place.
        { query, should_trigger: true, context: CONTEXT },
        { query: 'home-kill-neg unrelated', should_trigger: false },
      ]),
    );
    table.set('home-kill-neg unrelated', { kind: 'text' });
    let pid: number | undefined;
    const killed = runCli(runArgs(skillDir, evalFile, path.join(work, 'out-kill'), '--runs', '1'), {
      env,
      onStart: (child) => {
        pid = child.pid;
        if (pid !== undefined) started.push(pid);
      },
    });
    // The measured run of the hanging query has reached the model: its claude is running.
    expect(await waitFor(() => world.model.requests.some((r) => r.view?.query === query), 120_000)).toBe(
      true,
    );
    if (pid === undefined) throw new Error('no pid');
    process.kill(pid, 'SIGKILL');
    const result = await killed;
    expect(result.signal).toBe('SIGKILL');

    // What the kill left: the temp project with its owner file, and its claude's process group.
    const left = await projectsLeft(tmp);
    expect(left.length).toBeGreaterThan(0);
    const owners = await Promise.all(
      left.map((name) => readFile(path.join(tmp, name, OWNER_FILE), 'utf8').then((t) => JSON.parse(t).pid)),
    );
    expect(owners.every((owner) => owner === pid)).toBe(true);
    const claudeGroups = new Set<number>();
    for (const name of left) {
      const groups = await processGroupsIn(path.join(tmp, name));
      for (const g of groups) claudeGroups.add(g);
    }
    expect(claudeGroups.size).toBeGreaterThan(0);
    started.push(...processesInGroups(claudeGroups).map((p) => p.pid));

    // The next command that starts claude sweeps both.
    const next = await runCli(['preflight', '--claude', CLAUDE_BIN, '--out', path.join(work, 'after-kill')], {
      env,
    });
    expect(next.code).toBe(0);
    expect(await projectsLeft(tmp)).toEqual([]);
    expect(await waitFor(() => processesInGroups(claudeGroups).length === 0, 10_000)).toBe(true);
    // The killed claude's entry for its temp project goes with the folder.
    expect(await claudeProjectsLeft(claude.home)).toEqual([]);
  }, 600_000);
});

describe(faultTitle('home-unchanged'), () => {
  it('preflight and run', async () => {
    const { tmp, env } = await world.tmpEnv('home');
    await warm(env, 'warm');
    const home = await tree(claude.home);
    const temp = await tree(tmp);

    const preflight = await runCli(['preflight', '--claude', CLAUDE_BIN, '--out', path.join(work, 'pre')], {
      env,
    });
    expect(preflight.code).toBe(0);
    await unchanged(home, tmp, temp);

    const evalFile = path.join(work, 'home-evals.json');
    // A positive and a negative, one run each: a load and a miss; more runs change nothing in HOME.
    const items = [
      { query: 'home-pos write the handoff', should_trigger: true },
      { query: 'home-neg unrelated chore', should_trigger: false },
    ];
    for (const item of items)
      table.set(item.query, item.should_trigger ? { kind: 'skill' } : { kind: 'text' });
    await writeFile(evalFile, JSON.stringify(items));
    const run = await runCli(runArgs(skillDir, evalFile, path.join(work, 'out-home'), '--runs', '1'), {
      env,
    });
    expect(run.code).toBe(0);
    await unchanged(home, tmp, temp);
  }, 600_000);

  it('run with contexts: --context and entries of their own, on claude (warm standbys) and Codex', async () => {
    const { tmp, env } = await world.tmpEnv('context');
    await warm(env, 'warm-context');
    const home = await tree(claude.home);
    const temp = await tree(tmp);
    const contextFile = await world.write('home-context/all.json', JSON.stringify(CONTEXT));
    await world.write('home-context/contexts/own.json', JSON.stringify([...CONTEXT, ...CONTEXT]));
    const items = [
      { query: 'home-ctx-file write the handoff', should_trigger: true, context: 'contexts/own.json' },
      { query: 'home-ctx-inline unrelated chore', should_trigger: false, context: CONTEXT },
      { query: 'home-ctx-global write it down', should_trigger: true },
    ];
    for (const item of items)
      table.set(item.query, item.should_trigger ? { kind: 'skill' } : { kind: 'text' });
    const evalFile = await world.write('home-context/evals.json', JSON.stringify(items));
    const codexEnv = { ...env, OPENAI_BASE_URL: `${world.model.url}/v1`, OPENAI_API_KEY: 'sk-test-codex' };
    const agents = ['claude', 'codex'].join(',');
    const run = await runCli(
      runArgs(skillDir, evalFile, path.join(work, 'out-context'), '--runs', '2', '--standby', '2').concat([
        '--context',
        contextFile,
        '--agent',
        agents,
        '--codex',
        CODEX_BIN,
      ]),
      { env: codexEnv },
    );
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(await readFile(await reportIn(path.join(work, 'out-context')), 'utf8'));
    expect(report.candidate.queries.map((q: { context?: { turns: number } }) => q.context?.turns)).toEqual([
      4, 2, 2,
    ]);
    await unchanged(home, tmp, temp);
    expect(await readdir(tmp)).toEqual([]);
  }, 600_000);

  it('run --context-fill --versus-fresh: fresh and resumed runs interleaved, on claude (warm standbys) and Codex', async () => {
    const { tmp, env } = await world.tmpEnv('fill');
    await warm(env, 'warm-fill');
    const home = await tree(claude.home);
    const temp = await tree(tmp);
    const items = [
      { query: 'home-fill write the handoff', should_trigger: true },
      { query: 'home-fill unrelated chore', should_trigger: false },
    ];
    for (const item of items)
      table.set(item.query, item.should_trigger ? { kind: 'skill' } : { kind: 'text' });
    const evalFile = await world.write('home-fill/evals.json', JSON.stringify(items));
    const codexEnv = { ...env, OPENAI_BASE_URL: `${world.model.url}/v1`, OPENAI_API_KEY: 'sk-test-codex' };
    const out = path.join(work, 'out-fill');
    const run = await runCli(
      runArgs(skillDir, evalFile, out, '--runs', '1', '--standby', '2').concat([
        '--context-fill',
        '3000',
        '--versus-fresh',
        '--agent',
        'claude,codex',
        '--codex',
        CODEX_BIN,
      ]),
      { env: codexEnv },
    );
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(await readFile(await reportIn(out), 'utf8'));
    expect(report.settings.contextFill).toBe(3000);
    // Each query ran fresh and with the fill on each agent: four runs.
    expect(report.candidate.queries.map((q: { outcomes: string[] }) => q.outcomes.length)).toEqual([4, 4]);
    await unchanged(home, tmp, temp);
    expect(await readdir(tmp)).toEqual([]);
  }, 600_000);

  it('run --roster: the crowd in a HOME of each run, on claude (warm standbys) and Codex', async () => {
    const { tmp, env } = await world.tmpEnv('roster');
    await warm(env, 'warm-roster-run');
    const home = await tree(claude.home);
    const temp = await tree(tmp);
    const crowd = await world.dir('home-roster/crowd');
    for (const name of ['a-notes', 'z-review']) {
      await mkdir(path.join(crowd, name));
      await writeFile(path.join(crowd, name, 'SKILL.md'), `---\ndescription: Keep ${name} tidy\n---\nbody\n`);
    }
    // The claude stub is listed as `handoff` in its run's HOME: the load completes there, and the
    // CLI's skillUsage record goes with that HOME.
    table.set('home-roster write the handoff', (req) =>
      req.stub ? { kind: 'skill' } : { kind: 'skill', name: 'handoff' },
    );
    table.set('home-roster unrelated chore', { kind: 'text' });
    const evalFile = await world.write(
      'home-roster/evals.json',
      JSON.stringify([
        { query: 'home-roster write the handoff', should_trigger: true },
        { query: 'home-roster unrelated chore', should_trigger: false },
      ]),
    );
    const codexEnv = { ...env, OPENAI_BASE_URL: `${world.model.url}/v1`, OPENAI_API_KEY: 'sk-test-codex' };
    const out = path.join(work, 'out-roster');
    const run = await runCli(
      runArgs(skillDir, evalFile, out, '--runs', '2', '--standby', '2').concat([
        '--roster',
        crowd,
        '--agent',
        'claude,codex',
        '--codex',
        CODEX_BIN,
      ]),
      { env: codexEnv },
    );
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(await readFile(await reportIn(out), 'utf8'));
    expect(report.settings.roster).toMatchObject({ from: 'folder', skills: 2, commands: 0 });
    expect(report.candidate.queries[0].hits).toBe(4);
    await unchanged(home, tmp, temp);
    expect(await readdir(tmp)).toEqual([]);
  }, 600_000);

  it('matrix and improve (measured runs, the rewrite call)', async () => {
    const { tmp, env } = await world.tmpEnv('matrix-improve');
    await warm(env, 'warm-matrix');
    const home = await tree(claude.home);
    const temp = await tree(tmp);

    // Two skills, one positive and one negative each; a positive loads its own skill.
    const skills = path.join(work, 'matrix-skills');
    for (const name of ['notes', 'charts']) {
      await mkdir(path.join(skills, name, 'evals'), { recursive: true });
      await writeFile(
        path.join(skills, name, 'SKILL.md'),
        `---\nname: ${name}\ndescription: Handles ${name} for the weekly review\n---\n\nBody.\n`,
      );
      const pos = `home-mx ${name} wanted`;
      const neg = `home-mx ${name} unwanted`;
      table.set(pos, (req) => {
        const own = req.stubs?.find((e) => stubSkillName(e.name) === name);
        return own === undefined ? { kind: 'text' } : { kind: 'skill', name: own.name };
      });
      table.set(neg, { kind: 'text' });
      await writeFile(
        path.join(skills, name, 'evals', 'evals.json'),
        JSON.stringify([
          { query: pos, should_trigger: true },
          { query: neg, should_trigger: false },
        ]),
      );
    }
    const matrix = await runCli(
      [
        'matrix',
        '--skills',
        skills,
        '--runs',
        '1',
        '--claude',
        CLAUDE_BIN,
        '--out',
        path.join(work, 'out-mx'),
      ],
      { env },
    );
    expect(matrix.code, matrix.stderr).toBe(0);
    await unchanged(home, tmp, temp);

    // The original misses its train positive, so the session asks for a rewrite (a claude call of its own).
    const evalFile = path.join(work, 'improve-evals.json');
    const items = [
      { query: 'home-imp train wanted', should_trigger: true },
      { query: 'home-imp train unwanted', should_trigger: false },
      { query: 'home-imp held wanted', should_trigger: true, split: 'holdout' },
      { query: 'home-imp held unwanted', should_trigger: false, split: 'holdout' },
    ];
    for (const item of items) table.set(item.query, { kind: 'text' });
    await writeFile(evalFile, JSON.stringify(items));
    const asked = world.model.requests.length;
    const improve = await runCli(
      [
        'improve',
        '--skill',
        skillDir,
        '--eval',
        evalFile,
        '--iterations',
        '1',
        '--runs',
        '1',
        '--claude',
        CLAUDE_BIN,
        '--out',
        path.join(work, 'out-improve'),
      ],
      { env },
    );
    expect(improve.code, improve.stderr).toBe(0);
    expect(
      world.model.requests.slice(asked).some((r) => readRewritePrompt(r.view?.query ?? '') !== undefined),
    ).toBe(true);
    await unchanged(home, tmp, temp);
    expect(await readdir(tmp)).toEqual([]);
  }, 600_000);

  it('roster export of both agents (the catalogue read in place, the listing probed elsewhere)', async () => {
    const { tmp, env } = await world.tmpEnv('roster-export');
    await warm(env, 'warm-roster');
    // A crowd in this HOME for each agent: a Claude Code skill with a use record and a command,
    // and a skill in Codex's `~/.agents/skills`.
    const config = path.join(claude.home, '.claude');
    await mkdir(path.join(config, 'skills', 'pdf-tables'), { recursive: true });
    await writeFile(
      path.join(config, 'skills', 'pdf-tables', 'SKILL.md'),
      '---\nname: pdf-tables\ndescription: Extract tables from PDF files\n---\n\nBody.\n',
    );
    await mkdir(path.join(config, 'commands'), { recursive: true });
    await writeFile(
      path.join(config, 'commands', 'deploy.md'),
      '---\ndescription: Ship the build\n---\n\nGo.\n',
    );
    const json = path.join(claude.home, '.claude.json');
    const was = JSON.parse(await readFile(json, 'utf8'));
    await writeFile(
      json,
      JSON.stringify({
        ...was,
        skillUsage: { 'pdf-tables': { usageCount: 3, lastUsedAt: 1_700_000_000_000 } },
      }),
    );
    await mkdir(path.join(claude.home, '.agents', 'skills', 'slides'), { recursive: true });
    await writeFile(
      path.join(claude.home, '.agents', 'skills', 'slides', 'SKILL.md'),
      '---\nname: slides\ndescription: Build slide decks from notes\n---\n\nBody.\n',
    );
    const home = await tree(claude.home);
    const temp = await tree(tmp);

    const out = path.join(work, 'roster-claude.json');
    const r = await runCli(['roster', 'export', '--claude', CLAUDE_BIN, '--out', out], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('roster: 1 skill and 1 command claude lists');
    const roster = JSON.parse(await readFile(out, 'utf8'));
    expect(roster).toMatchObject({ schema: 'skilltrigger/roster', agent: 'claude', agentVersion: '2.1.328' });
    expect(roster.entries).toEqual([
      {
        kind: 'skill',
        source: 'user',
        name: 'pdf-tables',
        description: 'Extract tables from PDF files',
        chars: 29,
        usage: { usageCount: 3, lastUsedAt: 1_700_000_000_000 },
      },
      { kind: 'command', source: 'user', name: 'deploy', description: 'Ship the build', chars: 14 },
    ]);
    await unchanged(home, tmp, temp);

    const hashed = path.join(work, 'roster-codex.json');
    const c = await runCli(
      ['roster', 'export', '--agent', 'codex', '--codex', CODEX_BIN, '--hash-names', '--out', hashed],
      { env },
    );
    expect(c.code, c.stderr).toBe(0);
    const codex = JSON.parse(await readFile(hashed, 'utf8'));
    expect(codex).toMatchObject({ agent: 'codex', hashedNames: true });
    expect(codex.entries).toEqual([
      { kind: 'skill', source: 'user', name: expect.stringMatching(/^h[0-9a-f]{5}$/), chars: 28 },
    ]);
    expect(await readFile(hashed, 'utf8')).not.toContain('slides');
    await unchanged(home, tmp, temp);
    expect(await readdir(tmp)).toEqual([]);
  }, 600_000);
});

/** The report's JSON in `out`. */
async function reportIn(out: string): Promise<string> {
  const [json] = (await readdir(out)).filter((f) => f.endsWith('.json'));
  return path.join(out, json ?? '');
}

/** Process groups of the processes whose cwd lies inside `dir` (Linux /proc). */
async function processGroupsIn(dir: string): Promise<number[]> {
  const groups: number[] = [];
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const cwd = await readlink(`/proc/${name}/cwd`).catch(() => '');
    if (!cwd.startsWith(`${dir}/`)) continue;
    const stat = await readFile(`/proc/${name}/stat`, 'utf8').catch(() => '');
    const pgid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
    if (pgid > 1) groups.push(pgid);
  }
  return groups;
}
