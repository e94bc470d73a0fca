import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NAME_ONLY } from '../../src/report/listing-text.js';
import { type Report, reportSchema } from '../../src/schemas/report.js';
import { CLAUDE_BIN } from '../fakes/claude-env.js';
import { type CliWorld, runCli, startCliWorld } from '../fakes/cli.js';

/**
 * `run --roster` on Claude Code, through the real `claude` against the simulated model: each run
 * lists the roster's crowd in a HOME of its own, the stub where the skill's folder would stand. One
 * run per query, two queries, one measurement per case: 80 short skills whose folders sort before
 * the skill's take every bit of the 8,000-character budget (bare), a small one leaves the stub whole, a
 * description over the 1,536-character cap is cut; the user's HOME is never touched, and a run
 * without a key in the environment is refused at the gates (exit 2).
 */
let world: CliWorld;
let evalFile: string;

beforeAll(async () => {
  world = await startCliWorld({
    name: 'roster-run-e2e',
    model: {
      script: (view) => (view.query.startsWith('hit') ? { kind: 'skill' } : { kind: 'text' }),
      // A roster run's stub stands in the skill's own folder name.
      isStub: (e) => e.name === 'handoff',
    },
  });
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

async function skillWith(name: string, description: string): Promise<string> {
  const file = await world.write(
    `${name}/handoff/SKILL.md`,
    `---\nname: handoff\ndescription: ${description}\n---\n\nBody.\n`,
  );
  return path.dirname(file);
}

/** A roster folder of `count` never-used skills named `<prefix>-<i>`, each `chars` long. */
async function crowdFolder(name: string, count: number, chars: number, prefix = 'a-fill'): Promise<string> {
  const dir = await world.dir(name);
  for (let i = 1; i <= count; i++) {
    await mkdir(path.join(dir, `${prefix}-${i}`));
    await writeFile(
      path.join(dir, `${prefix}-${i}`, 'SKILL.md'),
      `---\ndescription: ${'x'.repeat(chars)}\n---\nbody\n`,
    );
  }
  return dir;
}

async function homeFiles(): Promise<string[]> {
  return (await readdir(world.claude.home, { recursive: true })).map(String).sort();
}

async function rosterRun(
  name: string,
  skill: string,
  roster: string,
  env = world.claude.env,
  extra: string[] = [],
) {
  const out = path.join(world.work, `out-${name}`);
  const args = ['run', '--skill', skill, '--eval', evalFile, '--runs', '1', '--claude', CLAUDE_BIN];
  const r = await runCli(
    [...args, '--model', 'claude-sonnet-4-5', '--roster', roster, '--out', out, ...extra],
    { env },
  );
  if (r.code !== 0) return { ...r, report: undefined };
  const [json] = (await readdir(out)).filter((f) => f.endsWith('.json'));
  const report: Report = reportSchema.parse(JSON.parse(await readFile(path.join(out, json ?? ''), 'utf8')));
  return { ...r, report };
}

describe('run --roster on Claude Code', () => {
  it('lists the stub name-only behind a crowd that sorts before it, records bare, and leaves HOME alone', async () => {
    const before = await homeFiles();
    const skill = await skillWith('bare', 'Write HANDOFF.md for the next session');
    const r = await rosterRun('bare', skill, await crowdFolder('crowd-bare', 80, 30));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(NAME_ONLY);
    const listing = r.report?.candidate.listing?.claude;
    expect(listing?.stub).toEqual({ state: 'bare', chars: 0, text: 37 });
    expect(listing?.budget).toBe(8000);
    // The 11 bundled skills and the first 30 of the crowd whole; the other 50, the stub, `init` and
    // `security-review` bare.
    expect(listing?.entries).toEqual({ whole: 41, cut: 0, bare: 53, omitted: 0 });
    expect(listing?.runs).toEqual({ whole: 0, cut: 0, bare: 2, fromRequest: 0 });
    expect(r.report?.settings.roster).toMatchObject({ from: 'folder', skills: 80, commands: 0 });
    expect(JSON.stringify(r.report)).not.toContain('a-fill');
    // The measured runs' requests held the crowd and the stub bare, from the run's own HOME.
    const measured = world.model.requests.filter((q) => q.turn === 1 && q.view?.query.startsWith('hit'));
    expect(measured.at(-1)?.view?.stub?.description).toBe('');
    expect(measured.at(-1)?.view?.listing.map((e) => e.name)).toContain('a-fill-2');
    // Nothing of the user's HOME was read into the runs or written by them.
    expect(await homeFiles()).toEqual(before);
  }, 300_000);

  it('lists the stub whole among a crowd that leaves it room', async () => {
    const skill = await skillWith('whole', 'Write HANDOFF.md for the next session');
    const r = await rosterRun('whole', skill, await crowdFolder('crowd-whole', 2, 100));
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toContain(NAME_ONLY);
    expect(r.report?.candidate.listing?.claude?.stub).toEqual({ state: 'whole', chars: 37, text: 37 });
    expect(r.report?.candidate.listing?.claude?.runs.whole).toBe(2);
  }, 300_000);

  it("cuts a description over the agent's cap", async () => {
    const skill = await skillWith('cut', `Write HANDOFF.md ${'for the next session '.repeat(80).trim()}`);
    const r = await rosterRun('cut', skill, await crowdFolder('crowd-cut', 1, 50));
    expect(r.code, r.stderr).toBe(0);
    expect(r.report?.candidate.listing?.claude?.stub).toEqual({ state: 'cut', chars: 1536, text: 1536 });
  }, 300_000);

  it('refuses at the gates (exit 2, nothing measured) without a key in the environment', async () => {
    const skill = await skillWith('nokey', 'Write HANDOFF.md for the next session');
    const { ANTHROPIC_API_KEY: _key, ...env } = world.claude.env;
    const asked = world.model.requests.length;
    const r = await rosterRun('nokey', skill, await crowdFolder('crowd-nokey', 1, 50), env);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('export ANTHROPIC_API_KEY');
    expect(world.model.requests.length).toBe(asked);
  }, 60_000);

  it('--versus-clean: the same description among the crowd and in the clean room, interleaved, in one paired report', async () => {
    const skill = await skillWith('clean', 'Write HANDOFF.md for the next session');
    const from = world.model.requests.length;
    const r = await rosterRun('clean', skill, await crowdFolder('crowd-clean', 80, 30), world.claude.env, [
      '--versus-clean',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const report = r.report;
    expect(report?.settings.roster).toMatchObject({ from: 'folder', skills: 80, versusClean: true });
    // Both arms measured the one description: the candidate among the crowd, the baseline in the clean room.
    expect(report?.baseline?.description.sha256).toBe(report?.candidate.description.sha256);
    expect(report?.candidate.listing?.claude?.stub).toEqual({ state: 'bare', chars: 0, text: 37 });
    expect(report?.candidate.listing?.claude?.runs).toMatchObject({ bare: 2 });
    expect(report?.baseline?.listing?.claude?.stub).toEqual({ state: 'whole', chars: 37, text: 37 });
    // The clean room lists the bundled skills and the stub alone: no entry is made bare.
    expect(report?.baseline?.listing?.claude?.entries).toMatchObject({ bare: 0 });
    expect(r.stdout).toContain(
      'versus-clean: baseline = the clean room (no crowd), candidate = among the roster',
    );
    expect(r.stdout).toMatch(/clean room .*among the crowd/);
    // The arms ran interleaved, each query once in each (the loop alternates which goes first); the
    // crowd's runs listed the stub bare, the clean room's whole.
    const measured = world.model.requests
      .slice(from)
      .filter((q) => q.turn === 1 && /^(hit|what)/.test(q.view?.query ?? ''));
    const arms = measured.map((q) => ({
      query: q.view?.query.slice(0, 4),
      crowd: q.view?.listing.some((e) => e.name.startsWith('a-fill')) ?? false,
      bare: q.view?.stub?.description === '',
    }));
    expect(arms.map((a) => a.query)).toEqual(['hit:', 'hit:', 'what', 'what']);
    for (const pair of [arms.slice(0, 2), arms.slice(2)])
      expect(pair.map((a) => a.crowd).sort()).toEqual([false, true]);
    for (const a of arms) expect(a.bare).toBe(a.crowd);
  }, 300_000);

  it('refuses --versus-clean without a roster or beside a baseline description (exit 1, with the fix)', async () => {
    const skill = await skillWith('clean-refused', 'Write HANDOFF.md for the next session');
    const args = ['run', '--skill', skill, '--eval', evalFile, '--versus-clean'];
    const alone = await runCli(args, { env: world.claude.env });
    expect(alone.code, alone.stderr).toBe(1);
    expect(alone.stderr).toContain(
      '--versus-clean: there is no crowd to measure against the clean room. Fix: give the crowd with --roster <file|dir>, or drop --versus-clean',
    );
    const crowd = await crowdFolder('crowd-refused', 1, 50);
    const both = await runCli([...args, '--roster', crowd, '--baseline-description', 'Another text'], {
      env: world.claude.env,
    });
    expect(both.code, both.stderr).toBe(1);
    expect(both.stderr).toContain('Fix: drop --baseline-description');
  }, 60_000);

  it('refuses an agent that cannot place a roster (exit 1, with the fix)', async () => {
    const skill = await skillWith('gemini', 'Write HANDOFF.md for the next session');
    const args = ['run', '--skill', skill, '--eval', evalFile, '--agent', 'gemini'];
    const r = await runCli([...args, '--roster', await crowdFolder('crowd-gemini', 1, 50)], {
      env: world.claude.env,
    });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toContain('--roster: Gemini CLI cannot be measured among a roster');
    expect(r.stderr).toContain('Fix: drop --roster');
  }, 60_000);
});
