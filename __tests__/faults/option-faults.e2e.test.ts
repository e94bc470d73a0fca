import { access, mkdir, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderCommandHelp } from '../../src/cli/help/help.js';
import { reportSchema } from '../../src/schemas/report.js';
import type { Behaviour } from '../../src/simulated/model.js';
import { CLAUDE_BIN } from '../fakes/claude-env.js';
import { actWhen, type CliWorld, runCli, startCliWorld } from '../fakes/cli.js';
import { faultTitle } from './cases.js';
import { canMountTmpfs, scriptTable, shellScript } from './support.js';

/**
 * The option and environment faults that are not a plain refusal of bad input (those are in
 * cli-option-input-cases.ts): a full temp folder (a real tmpfs in a private mount namespace), the
 * report folder inside the skill, an interrupted `init`, and which text a paired run's baseline was.
 */

const DESCRIPTION = 'Write HANDOFF.md summarising the session so a fresh session can resume the work';
const canMount = canMountTmpfs();
const table = new Map<string, Behaviour>();
/** The drafting prompt of `init` (it holds the eval set's tag): it hangs, so the call can be interrupted. */
const drafting = (query: string) => query.includes('<eval_set>');
let world: CliWorld;
let skill: string;
let evalFile: string;
let recorder: string;
let marker: string;

beforeAll(async () => {
  world = await startCliWorld({
    name: 'option-faults',
    model: {
      script: (req, ctx) => (drafting(req.query) ? { kind: 'hang' } : scriptTable(table)(req, ctx)),
    },
  });
  skill = path.dirname(
    await world.write('handoff/SKILL.md', `---\nname: handoff\ndescription: ${DESCRIPTION}\n---\n\nBody.\n`),
  );
  table.set('opt-pos write the handoff', { kind: 'skill' });
  table.set('opt-neg unrelated chore', { kind: 'text' });
  evalFile = await world.write(
    'evals.json',
    JSON.stringify([
      { query: 'opt-pos write the handoff', should_trigger: true },
      { query: 'opt-neg unrelated chore', should_trigger: false },
    ]),
  );
  marker = path.join(world.work, 'claude-was-started');
  recorder = await shellScript(world.work, 'claude-recorder', `echo "$@" >> '${marker}'\nexit 1`);
});

afterAll(async () => {
  await world?.close();
});

const started = () =>
  access(marker).then(
    () => true,
    () => false,
  );

/** Runs skilltrigger with TMPDIR on a 64 KiB tmpfs that `dd` filled, private to that process. */
const fullTmpLauncher = (mount: string) => [
  'unshare',
  '-m',
  '--',
  'sh',
  '-c',
  'mount -t tmpfs -o size=64k none "$1" && (dd if=/dev/zero of="$1/fill" bs=4k count=64 2>/dev/null; true) && shift && exec "$@"',
  'sh',
  mount,
];

describe('option and environment faults', () => {
  it.skipIf(!canMount)(faultTitle('cli-tmpdir-full'), async () => {
    const mount = path.join(world.work, 'full-tmp');
    await mkdir(mount);
    const out = path.join(world.work, 'out-full');
    const r = await runCli(
      ['run', '--skill', skill, '--eval', evalFile, '--runs', '1', '--out', out, '--claude', recorder],
      { env: { ...world.claude.env, TMPDIR: mount }, launcher: fullTmpLauncher(mount) },
    );
    expect(r.stderr).not.toMatch(/unexpected error|\n\s+at /);
    expect(r.stderr).toContain(`the temp folder TMPDIR=${mount} is full (0 KiB free)`);
    expect(r.stderr).toContain('Fix: free space there, or point TMPDIR at');
    expect(r.code).toBe(1);
    expect(await started()).toBe(false);
    await expect(access(out)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it.skipIf(!canMount)(faultTitle('check-tmpdir-full'), async () => {
    const mount = path.join(world.work, 'full-tmp-check');
    await mkdir(mount);
    const r = await runCli(['check', '--skill', skill, '--claude', CLAUDE_BIN], {
      env: { ...world.claude.env, TMPDIR: mount },
      launcher: fullTmpLauncher(mount),
    });
    expect(r.stderr).not.toMatch(/unexpected error|\n\s+at /);
    expect(r.stderr).toContain(`the temp folder TMPDIR=${mount} is full`);
    expect(r.code).toBe(1);
  });

  it(faultTitle('cli-out-in-skill'), async () => {
    const r = await runCli(
      ['run', '--skill', skill, '--eval', evalFile, '--out', skill, '--claude', recorder],
      {
        env: world.claude.env,
      },
    );
    const warning = `warning: --out ${skill} is the skill folder itself (${skill}): the reports will sit beside SKILL.md and ship with the skill. Fix:`;
    expect(r.stderr).toContain(warning);
    // Said before the gates, where it can still be acted on.
    expect(r.stderr.indexOf(warning)).toBeLessThan(r.stderr.indexOf('cli '));
    const inside = path.join(skill, 'results');
    const again = await runCli(
      ['run', '--skill', skill, '--eval', evalFile, '--out', inside, '--claude', recorder],
      {
        env: world.claude.env,
      },
    );
    expect(again.stderr).toContain(`warning: --out ${inside} is inside the skill folder`);
    const elsewhere = await runCli(
      [
        'run',
        '--skill',
        skill,
        '--eval',
        evalFile,
        '--out',
        path.join(world.work, 'o'),
        '--claude',
        recorder,
      ],
      { env: world.claude.env },
    );
    expect(elsewhere.stderr).not.toContain('skill folder');
  });

  it(faultTitle('init-interrupted'), async () => {
    const dir = path.dirname(
      await world.write(
        'init/handoff/SKILL.md',
        `---\nname: handoff\ndescription: ${DESCRIPTION}\n---\n\nBody.\n`,
      ),
    );
    const before = world.model.requests.length;
    const sent = actWhen(
      () => world.model.requests.slice(before).some((q) => drafting(q.view?.query ?? '')),
      (child) => child.kill('SIGTERM'),
    );
    const r = await runCli(['init', '--skill', dir, '--timeout', '120', '--claude', CLAUDE_BIN], {
      env: world.claude.env,
      onStart: sent.onStart,
    });
    expect(sent.done()).toBe(true);
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('init: interrupted; no draft was written');
    expect(r.stderr).not.toMatch(/preflight|unexpected error/);
    await expect(access(path.join(dir, 'evals', 'evals.json'))).rejects.toMatchObject({ code: 'ENOENT' });
    // Its help lists the exit it gave.
    expect(renderCommandHelp('init')).toMatch(/^ {2}3 {2}no draft: the call was interrupted/m);
  });

  it(faultTitle('cli-baseline-source'), async () => {
    const old = await world.write('old.txt', 'Write a handoff note for the next session\n');
    const out = path.join(world.work, 'out-paired');
    const r = await runCli(
      [
        'run',
        '--skill',
        skill,
        '--eval',
        evalFile,
        '--runs',
        '1',
        '--baseline-description',
        old,
        '--out',
        out,
        '--claude',
        CLAUDE_BIN,
      ],
      { env: world.claude.env },
    );
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`baseline: the text of the file ${old} (41 bytes)`);
    const [json] = (await readdir(out)).filter((f) => f.endsWith('.json'));
    const text = await readFile(path.join(out, json ?? ''), 'utf8');
    const report = reportSchema.parse(JSON.parse(text));
    expect(report.baseline?.description.from).toBe('file');
    expect(report.candidate.description.from).toBe('skill');
    // Which form, never the path.
    expect(text).not.toContain(old);
  });
});
