import type { ChildProcess } from 'node:child_process';
import { access, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claudeEnvironment, runOnce } from '../../src/agents/claude/run-once.js';
import { type Behaviour, GATE_QUERY, type SimulatedModel } from '../../src/simulated/model.js';
import { CLAUDE_BIN, type ClaudeEnv } from '../fakes/claude-env.js';
import {
  actWhen,
  type CliResult,
  type CliWorld,
  REPO_ROOT,
  runCli,
  SKILLTRIGGER_BIN,
  startCliWorld,
} from '../fakes/cli.js';
import { faultTitle } from './cases.js';
import {
  canMountTmpfs,
  claudeProjectsLeft,
  faultCase,
  killPids,
  onlyReport,
  ownGroup,
  processesInGroups,
  processesUnder,
  processesWith,
  projectsLeft,
  scriptTable,
  shellScript,
} from './support.js';

/**
 * Faults of the process around a measurement (docs/faults.md): the terminal or pipe that goes away,
 * SIGHUP, a second Ctrl-C, Ctrl-C during the gates, a report folder that cannot be written, a key
 * that an upstream echoes, a relative `--claude`, a prompt too long for the argv. `skilltrigger run`
 * runs as a process with the real claude binary and the simulated model; each case checks the exit
 * code, that the report is written whenever a measurement started, that no `skilltrigger-*` temp
 * folder and no claude process group is left, and that the API key appears nowhere.
 */

/** The API key every run here gets; it must never show in any output or file. */
const KEY = 'sk-ant-faults-canary-4f2d8b61c0';
const DESCRIPTION = 'Write HANDOFF.md summarising the session so a fresh session can resume the work';
const table = new Map<string, Behaviour>();
/** What the round-trip gate's request gets instead of `pong`, for the gate cases. */
let gateBehaviour: Behaviour | undefined;
let world: CliWorld;
let work: string;
let skillDir: string;
let model: SimulatedModel;
let claude: ClaudeEnv;
/** Processes a failed case may have left; ended in afterAll by pid. */
const leftovers: number[] = [];
/** Every claude process group a case saw: whatever is still in one is ended in afterAll too. */
const watchedGroups = new Set<number>();

/** Decided before collection, so the read-only case can be skipped by name. */
const canMount = canMountTmpfs();

beforeAll(async () => {
  const byQuery = scriptTable(table);
  // One HOME for the file, a TMPDIR per case: a case's leftovers are looked for in its own folder.
  world = await startCliWorld({
    name: 'process-faults',
    model: {
      script: (req, ctx) => (req.query === GATE_QUERY && gateBehaviour ? gateBehaviour : byQuery(req, ctx)),
    },
    env: { ANTHROPIC_API_KEY: KEY },
  });
  ({ work, model, claude } = world);
  skillDir = path.dirname(
    await world.write('handoff/SKILL.md', `---\nname: handoff\ndescription: ${DESCRIPTION}\n---\n\nBody.\n`),
  );
});

afterAll(async () => {
  killPids([...leftovers, ...processesInGroups(watchedGroups).map((p) => p.pid)]);
  await world?.close();
});

/** A two-query eval set routed to the given behaviours, a private TMPDIR, and `--out` its results folder. */
async function setUp(name: string, positive: Behaviour, negative: Behaviour) {
  const t = await faultCase(world, table, skillDir, { name, positive, negative });
  return { ...t, args: [...t.args, '--out', t.out] };
}

/** Every file under `dir` (none when it does not exist). */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

/** The key is in no output and no file the run left (report, Markdown, temp folder). */
async function expectNoKey(r: CliResult, ...dirs: string[]): Promise<void> {
  expect(r.stdout).not.toContain(KEY);
  expect(r.stderr).not.toContain(KEY);
  for (const dir of dirs) {
    for (const file of await filesUnder(dir)) {
      expect(await readFile(file, 'utf8'), file).not.toContain(KEY);
    }
  }
}

/**
 * Watches the process groups of the processes `find` names (those whose command line holds a
 * marker, or that run in a case's TMPDIR), while the CLI runs. The CLI itself may hold the marker in
 * its argv (a `--claude` path); it runs in this test's own group, which is never watched (nor ended
 * afterwards).
 */
function groupWatch(find: () => ReturnType<typeof processesWith>) {
  const pgids = new Set<number>();
  const pids = new Set<number>();
  const own = ownGroup();
  return {
    pgids,
    look() {
      for (const p of find()) {
        if (p.pgid === own || (p.pid === p.pgid && p.args.includes(SKILLTRIGGER_BIN))) continue;
        pgids.add(p.pgid);
        watchedGroups.add(p.pgid);
        pids.add(p.pid);
      }
    },
    /** After the CLI exited: nothing of those groups may be left. */
    left() {
      const rows = processesInGroups(pgids);
      leftovers.push(...rows.map((p) => p.pid), ...pids);
      return rows;
    },
  };
}

/** A signal to the CLI's whole job (it runs `detached`, so its pid is its group), as a terminal sends it. */
function signalJob(child: ChildProcess, signal: NodeJS.Signals): void {
  // Never `kill(-0)`: that is this test runner's own group.
  if (child.pid === undefined) throw new Error('the CLI has no pid');
  process.kill(-child.pid, signal);
}

function noStackTrace(r: CliResult): void {
  expect(r.stderr).not.toMatch(/unexpected error|EPIPE|\n\s+at /);
}

/**
 * One measured run serves two cases: stdout's reader gone, and a relative `--claude` resolved
 * against the working directory. Each case's checks read stderr and the files, never stdout.
 */
let epipeRelative: Promise<{ t: Awaited<ReturnType<typeof setUp>>; r: CliResult }> | undefined;
function epipeWithRelativeClaude() {
  epipeRelative ??= (async () => {
    const t = await setUp('epipe-out', { kind: 'skill' }, { kind: 'text' });
    const r = await runCli([...t.args, '--claude', './node_modules/.bin/claude'], {
      env: t.env,
      cwd: REPO_ROOT,
      // `| true`: the reader is gone before the first line (`| head -1` is gone after it).
      onStart: (child) => child.stdout?.destroy(),
    });
    return { t, r };
  })();
  return epipeRelative;
}

describe('the reader goes away: measuring goes on', () => {
  it(faultTitle('cli-epipe-stdout'), async () => {
    const { t, r } = await epipeWithRelativeClaude();
    noStackTrace(r);
    expect(r.code).toBe(0);
    const report = await onlyReport(t.out);
    expect(report.verdict).toBe('ok');
    expect(report.candidate.queries.map((q) => q.outcomes)).toEqual([['triggered'], ['not-triggered']]);
    expect(await projectsLeft(t.tmp)).toEqual([]);
    expect(await claudeProjectsLeft(claude.home)).toEqual([]);
    // No claude left in the case's TMPDIR: neither the runs' nor a standby's.
    expect(processesUnder(t.tmp)).toEqual([]);
    await expectNoKey(r, t.out, t.tmp);
  });

  it(faultTitle('cli-epipe-stderr'), async () => {
    const t = await setUp('epipe-err', { kind: 'skill' }, { kind: 'text' });
    const r = await runCli([...t.args, '--claude', CLAUDE_BIN], {
      env: t.env,
      onStart: (child) => child.stderr?.destroy(),
    });
    expect(r.code).toBe(0);
    // stdout still carries the result.
    expect(r.stdout).toMatch(/positives triggered|report: /);
    const report = await onlyReport(t.out);
    expect(report.verdict).toBe('ok');
    expect(report.candidate.queries.map((q) => q.outcomes)).toEqual([['triggered'], ['not-triggered']]);
    expect(await projectsLeft(t.tmp)).toEqual([]);
    expect(await claudeProjectsLeft(claude.home)).toEqual([]);
    await expectNoKey(r, t.out, t.tmp);
  });
});

describe('signals', () => {
  it(faultTitle('cli-sighup-group'), async () => {
    const t = await setUp('sighup', { kind: 'skill' }, { kind: 'hang' });
    // Every claude of the case runs in a temp project in its TMPDIR: the runs and the standbys.
    const groups = groupWatch(() => processesUnder(t.tmp));
    const sent = actWhen(
      (stderr) => {
        groups.look();
        const hanging = model.requests.some((q) => q.view?.query === t.queries.negative);
        return stderr.includes('query 1/2') && hanging && groups.pgids.size > 0;
      },
      (child) => {
        // A closed terminal: the pipes are gone and the whole job gets SIGHUP.
        child.stdout?.destroy();
        child.stderr?.destroy();
        signalJob(child, 'SIGHUP');
      },
    );
    const r = await runCli([...t.args, '--claude', CLAUDE_BIN, '--timeout', '60'], {
      env: t.env,
      detached: true,
      onStart: sent.onStart,
    });
    expect(sent.done()).toBe(true);
    expect(r.signal).toBeNull();
    expect(r.code).toBe(3);
    const report = await onlyReport(t.out);
    expect(report.verdict).toBe('no-verdict');
    expect(report.candidate.interrupted).toBe(true);
    expect(report.candidate.queries[0]?.outcomes).toEqual(['triggered']);
    expect(await projectsLeft(t.tmp)).toEqual([]);
    expect(await claudeProjectsLeft(claude.home)).toEqual([]);
    expect(groups.left()).toEqual([]);
    await expectNoKey(r, t.out, t.tmp);
  });

  it(faultTitle('cli-double-sigint'), async () => {
    const t = await setUp('double-sigint', { kind: 'skill' }, { kind: 'hang' });
    // The measured runs' claudes go through a wrapper that ignores TERM and, once claude is gone,
    // stays on in a `sleep` that ignores it too: only a KILL to the group ends it. A run's query is
    // in its argv when it starts cold, and a standby (its prompt on stdin) has `--input-format`.
    const wrapper = await shellScript(
      work,
      'claude-ignores-term',
      `case "$*" in\n  *'${t.queries.negative}'*|*--input-format*) trap '' TERM; '${CLAUDE_BIN}' "$@"; sleep 600 ;;\n  *) exec '${CLAUDE_BIN}' "$@" ;;\nesac`,
    );
    const groups = groupWatch(() => processesUnder(t.tmp));
    let first = false;
    let second = false;
    // Ctrl-C in a terminal signals the whole foreground job: skilltrigger in its own group.
    const r = await runCli([...t.args, '--claude', wrapper, '--timeout', '60'], {
      env: t.env,
      detached: true,
      onStart: (child, stderr) => {
        const ctrlC = () => signalJob(child, 'SIGINT');
        const timer = setInterval(() => {
          groups.look();
          const hanging = model.requests.some((q) => q.view?.query === t.queries.negative);
          if (!first && stderr().includes('query 1/2') && hanging && groups.pgids.size > 0) {
            first = true;
            ctrlC();
          } else if (first && !second && stderr().includes('SIGINT: stopping')) {
            // The first Ctrl-C already SIGKILLs a measured run's group; a second one, if
            // skilltrigger is still there, kills whatever claude is left and must change nothing.
            second = true;
            clearInterval(timer);
            if (child.exitCode === null) ctrlC();
          }
        }, 100);
        child.on('close', () => clearInterval(timer));
      },
    });
    // The first Ctrl-C alone may end it all (the run's group is SIGKILLed at once): the second is
    // sent only if skilltrigger is still there, and either way the outcome is the same.
    expect(first).toBe(true);
    expect(r.stderr).toContain('SIGINT: stopping');
    expect(r.code).toBe(3);
    const report = await onlyReport(t.out);
    expect(report.candidate.interrupted).toBe(true);
    expect(report.candidate.queries[0]?.outcomes).toEqual(['triggered']);
    expect(await projectsLeft(t.tmp)).toEqual([]);
    expect(await claudeProjectsLeft(claude.home)).toEqual([]);
    // The wrapper and its TERM-proof sleep went with the group.
    expect(groups.left()).toEqual([]);
    await expectNoKey(r, t.out, t.tmp);
  });

  it(faultTitle('cli-sigint-gates'), async () => {
    const t = await setUp('sigint-gates', { kind: 'skill' }, { kind: 'text' });
    // A wrapper that stays the parent of claude, so its path marks the gates' process groups.
    const wrapper = await shellScript(work, 'claude-gates-marker', `'${CLAUDE_BIN}' "$@"`);
    const groups = groupWatch(() => processesWith(wrapper));
    const before = model.requests.length;
    gateBehaviour = { kind: 'hang' };
    const sent = actWhen(
      () => {
        groups.look();
        return model.requests.slice(before).some((q) => q.view?.query === GATE_QUERY);
      },
      (child) => signalJob(child, 'SIGINT'),
    );
    try {
      const r = await runCli([...t.args, '--claude', wrapper], {
        env: t.env,
        detached: true,
        onStart: sent.onStart,
      });
      expect(sent.done()).toBe(true);
      expect(r.code).toBe(3);
      expect(r.stderr).toContain('interrupted during the gates; nothing was measured');
      // Nothing was measured: no report, and nothing the gates made is left.
      expect(await filesUnder(t.out)).toEqual([]);
      expect(await projectsLeft(t.tmp)).toEqual([]);
      expect(await claudeProjectsLeft(claude.home)).toEqual([]);
      expect(groups.pgids.size).toBeGreaterThan(0);
      expect(groups.left()).toEqual([]);
      await expectNoKey(r, t.tmp);
    } finally {
      gateBehaviour = undefined;
    }
  });
});

describe('the key never leaves the process', () => {
  for (const [id, key] of [
    ['cli-echoed-key', KEY],
    ['cli-echoed-gateway-key', 'gw-faults-gateway-key-9c41d7'],
  ] as const) {
    it(faultTitle(id), async () => {
      const t = await setUp(id, { kind: 'skill' }, { kind: 'text' });
      gateBehaviour = { kind: 'api-error', status: 500, echoApiKey: true };
      const before = model.requests.length;
      try {
        const r = await runCli([...t.args, '--claude', CLAUDE_BIN], {
          env: { ...t.env, ANTHROPIC_API_KEY: key },
        });
        expect(r.code).toBe(2);
        // The upstream did echo it; skilltrigger masked it.
        expect(model.requests.slice(before).some((q) => q.view?.query === GATE_QUERY)).toBe(true);
        expect(r.stderr).toContain('refused the credential ***');
        expect(r.stderr).not.toContain(key);
        expect(r.stdout).not.toContain(key);
        expect(await filesUnder(t.out)).toEqual([]);
        expect(await projectsLeft(t.tmp)).toEqual([]);
        expect(await claudeProjectsLeft(claude.home)).toEqual([]);
        await expectNoKey(r, t.tmp);
      } finally {
        gateBehaviour = undefined;
      }
    });
  }
});

describe('where claude and the report go', () => {
  it(faultTitle('cli-relative-claude'), async () => {
    const { t, r } = await epipeWithRelativeClaude();
    expect(r.stderr).not.toMatch(/ENOENT|could not be started/);
    expect(r.code).toBe(0);
    const report = await onlyReport(t.out);
    expect(report.candidate.queries.map((q) => q.outcomes)).toEqual([['triggered'], ['not-triggered']]);
    expect(await projectsLeft(t.tmp)).toEqual([]);
    expect(await claudeProjectsLeft(claude.home)).toEqual([]);
    await expectNoKey(r, t.out, t.tmp);
  });

  it.skipIf(!canMount)(faultTitle('cli-out-read-only'), async () => {
    const t = await setUp('read-only', { kind: 'skill' }, { kind: 'text' });
    const mount = path.join(work, 'read-only-mount');
    await mkdir(mount);
    const out = path.join(mount, 'results');
    const marker = path.join(work, 'read-only-claude-started');
    const recorder = await shellScript(work, 'claude-recorder-ro', `echo "$@" >> '${marker}'\nexit 1`);
    const before = model.requests.length;
    // Root passes every permission bit, so "no permission" is a read-only mount here.
    const args = t.args.slice(0, -2); // setUp's own --out goes: a single-value option is given once
    const r = await runCli([...args, '--out', out, '--claude', recorder], {
      env: t.env,
      launcher: [
        'unshare',
        '-m',
        '--',
        'sh',
        '-c',
        'mount -t tmpfs -o ro,size=64k none "$1" && shift && exec "$@"',
        'sh',
        mount,
      ],
    });
    expect(r.stderr).toContain(`cannot write the report to ${out}: EROFS`);
    expect(r.stderr).toContain('Fix: choose a writable folder with --out');
    expect(r.code).toBe(1);
    // Refused before anything was spent: claude never started, the model never asked.
    await expect(access(marker)).rejects.toMatchObject({ code: 'ENOENT' });
    expect(model.requests.length).toBe(before);
    expect(await projectsLeft(t.tmp)).toEqual([]);
    expect(await claudeProjectsLeft(claude.home)).toEqual([]);
    await expectNoKey(r, t.tmp);
  });

  it(faultTitle('check-slash-query'), async () => {
    const file = path.join(work, 'slash.json');
    await writeFile(
      file,
      JSON.stringify([
        { query: '/handoff and then stop', should_trigger: true },
        { query: 'rename this variable', should_trigger: false },
      ]),
    );
    const r = await runCli(['check', '--skill', skillDir, '--eval', file], { env: claude.env });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('starts with "/handoff", which Claude Code expands');
    expect(r.stdout).toContain('Fix: drop the leading slash');
  });
});

describe('a prompt too long for the argv', () => {
  it(faultTitle('run-e2big'), async () => {
    const projects = path.join(work, 'e2big-projects');
    await mkdir(projects);
    // Past the loader (which refuses it), straight into a run: the spawn fails with E2BIG.
    const result = await runOnce({
      query: `${'x'.repeat(200 * 1024)} e2big`,
      stub: { layout: 'command', skillName: 'handoff', description: DESCRIPTION, root: projects },
      timeoutMs: 30_000,
      claudeBin: CLAUDE_BIN,
      env: claudeEnvironment(claude.env, 0),
    });
    expect(result.outcome).toEqual({ kind: 'error', cause: 'crash' });
    expect(await projectsLeft(projects)).toEqual([]);
  });
});
