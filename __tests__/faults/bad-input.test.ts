import { type ChildProcess, execFileSync } from 'node:child_process';
import { access, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { runCli } from '../fakes/cli.js';
import { runCliInProcess } from '../fakes/cli-in-process.js';
import { BAD_INPUT_CASES, type BadInputCase } from './bad-input-cases.js';
import { shellScript } from './support.js';

/**
 * The bad-input corpus (bad-input-cases.ts) through the CLI as a user runs it. Each case must end
 * with its exact exit code and error fragment, without a stack trace, and without ever starting
 * claude: `--claude` is a script that leaves a mark when started, and the mark must never appear.
 *
 * The first case of each area, and every case that sets the environment or reads a FIFO, runs as a
 * user runs it (`node bin/skilltrigger.js`); the others call the CLI's entry in this process
 * (fakes/cli-in-process.ts), the same code after the same arguments, without a node start each.
 */
const SPAWNED = new Set([
  ...BAD_INPUT_CASES.filter((c, i) => BAD_INPUT_CASES.findIndex((d) => d.area === c.area) === i).map(
    (c) => c.id,
  ),
  ...BAD_INPUT_CASES.filter((c) => c.env !== undefined || c.fifos !== undefined).map((c) => c.id),
]);

let work: string;
let marker: string;
let claude: string;
let skill: string;
let evalSet: string;

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'skilltrigger-bad-input-'));
  marker = path.join(work, 'claude-was-started');
  claude = await shellScript(work, 'claude-recorder', `echo "$@" >> '${marker}'\nexit 1`);
  skill = path.join(work, 'handoff');
  await mkdir(skill);
  await writeFile(
    path.join(skill, 'SKILL.md'),
    '---\nname: handoff\ndescription: Write HANDOFF.md so the next session can resume the work\n---\n\nBody.\n',
  );
  evalSet = path.join(work, 'evals.json');
  await writeFile(
    evalSet,
    JSON.stringify([
      { query: 'write the handoff notes', should_trigger: true },
      { query: 'rename this variable', should_trigger: false },
    ]),
  );
});

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

function fill(text: string, dir: string): string {
  return text
    .replaceAll('{dir}', dir)
    .replaceAll('{skill}', skill)
    .replaceAll('{eval}', evalSet)
    .replaceAll('{claude}', claude);
}

async function prepare(c: BadInputCase): Promise<string> {
  const dir = path.join(work, c.id);
  await mkdir(dir);
  for (const [name, content] of Object.entries(c.files ?? {})) {
    const file = path.join(dir, name);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, typeof content === 'string' ? fill(content, dir) : content);
  }
  for (const name of c.fifos ?? []) {
    const file = path.join(dir, name);
    await mkdir(path.dirname(file), { recursive: true });
    execFileSync('mkfifo', [file]);
  }
  for (const [name, target] of Object.entries(c.links ?? {})) {
    const file = path.join(dir, name);
    await mkdir(path.dirname(file), { recursive: true });
    await symlink(fill(target, dir), file);
  }
  return dir;
}

async function claudeWasStarted(): Promise<boolean> {
  return access(marker).then(
    () => true,
    () => false,
  );
}

describe('bad input stops before anything runs, with its error and exit code', () => {
  it('the corpus has at least 40 distinct cases', () => {
    expect(BAD_INPUT_CASES.length).toBeGreaterThanOrEqual(40);
    expect(new Set(BAD_INPUT_CASES.map((c) => c.id)).size).toBe(BAD_INPUT_CASES.length);
    expect(new Set(BAD_INPUT_CASES.map((c) => c.error)).size).toBe(BAD_INPUT_CASES.length);
  });

  for (const c of BAD_INPUT_CASES) {
    it(`${c.id}: ${c.area}, ${c.what} → exit ${c.exit}`, async () => {
      const dir = await prepare(c);
      const out = path.join(dir, 'results');
      const args = c.args.map((a) => fill(a, dir));
      // Where a report would go if anything were measured: it must not appear.
      // (A case that names its own --out keeps it: a single-value option given twice is an error.)
      const withOut =
        args[0] === 'run' && !args.includes('--out') ? ['run', '--out', out, ...args.slice(1)] : args;
      const own = Object.fromEntries(Object.entries(c.env ?? {}).map(([k, v]) => [k, fill(v, dir)]));
      // A case that makes the CLI wait for ever (a FIFO read on a build without the guard) would
      // outlive the test and its signals: it is killed once the test gives up, never left behind.
      let child: ChildProcess | undefined;
      onTestFinished(() => {
        if (child?.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      });
      const env = { PATH: process.env.PATH ?? '', HOME: work, TMPDIR: work, ...own };
      const r = SPAWNED.has(c.id)
        ? await runCli(withOut, {
            env,
            onStart: (started) => {
              child = started;
            },
          })
        : await runCliInProcess(withOut, { env });
      const printed = c.stream === 'stdout' ? r.stdout : r.stderr;
      expect(printed).toContain(fill(c.error, dir));
      if (c.fix !== undefined) expect(printed).toContain(c.fix);
      // It names the flag first, then what the value must be, or what is wrong and the fix.
      if (c.flag !== undefined)
        expect(r.stderr).toMatch(
          new RegExp(`^skilltrigger: ${c.flag}(?: must be .+; got "|: .+\\. Fix: )`, 'm'),
        );
      expect(r.code).toBe(c.exit);
      expect(r.stderr).not.toMatch(/unexpected error|\n\s+at /);
      expect(await claudeWasStarted()).toBe(false);
      await expect(access(out)).rejects.toMatchObject({ code: 'ENOENT' });
    });
  }
});
