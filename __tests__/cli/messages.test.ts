import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMAND_HELP, COMMAND_NAMES } from '../../src/cli/help/commands.js';
import { renderCommandHelp, USAGE } from '../../src/cli/help/help.js';
import { runCli } from '../fakes/cli.js';
import { runCliInProcess } from '../fakes/cli-in-process.js';
import { fixtureMeasurement, reportFixture } from '../fakes/report-fixture.js';

/**
 * Help and usage messages, as a user meets them: exact text and exit code. No model is needed:
 * every case stops before anything runs. The overall usage, --version, `run` without --skill and
 * `check` run as a user runs them (`node bin/skilltrigger.js …`); the other cases call the CLI's
 * entry in this process (fakes/cli-in-process.ts), the same code without a node start each.
 */
let work: string;
let skill: string;
let evalFile: string;
const env = () => ({ PATH: process.env.PATH ?? '', HOME: work, TMPDIR: work });

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'skilltrigger-messages-'));
  skill = path.join(work, 'handoff');
  await mkdir(skill);
  await writeFile(path.join(skill, 'SKILL.md'), '---\nname: handoff\ndescription: Write HANDOFF.md\n---\n');
  evalFile = path.join(work, 'evals.json');
  await writeFile(
    evalFile,
    JSON.stringify([
      { query: 'write the handoff', should_trigger: true },
      { query: 'what time is it', should_trigger: false },
    ]),
  );
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('help', () => {
  for (const command of COMMAND_NAMES) {
    it(`${command} --help, -h and help ${command} print the same help, exit 0`, async () => {
      const outputs = [];
      for (const args of [
        [command, '--help'],
        [command, '-h'],
        ['help', command],
        [command, '--skill', 'x', '--help'],
      ])
        outputs.push(await runCliInProcess(args, { env: env() }));
      for (const r of outputs) {
        expect(r.code).toBe(0);
        expect(r.stderr).toBe('');
        expect(r.stdout).toBe(renderCommandHelp(command));
      }
      const text = outputs[0]?.stdout ?? '';
      expect(text.startsWith(`skilltrigger ${command} — ${COMMAND_HELP[command].summary}\n`)).toBe(true);
      // Every option is explained, the exit codes are listed, and there are two examples.
      for (const o of COMMAND_HELP[command].options)
        expect(text).toMatch(new RegExp(`^  --${o.name}\\b`, 'm'));
      expect(text).toMatch(/^Exit codes:\n {2}0 {2}/m);
      expect(text.split('\n').filter((l) => l.startsWith('  # '))).toHaveLength(2);
      expect(text.split('\n').filter((l) => l.startsWith('  skilltrigger '))).toHaveLength(3);
      for (const line of text.split('\n')) expect(line.length).toBeLessThanOrEqual(100);
    });
  }

  it('run --help explains --stub, auto[:max] and which side --baseline-description is', async () => {
    const r = await runCliInProcess(['run', '--help'], { env: env() });
    const flat = r.stdout.replace(/\s+/g, ' ');
    expect(flat).toContain(
      '--stub command|skill what stands in for the skill in the temp project. command (default): a slash command .claude/commands/<name>-stub-<8 hex>.md, a name nothing installed can collide with. skill: .claude/skills/<name>/SKILL.md under the real name, as Claude Code loads a skill',
    );
    expect(flat).toContain(
      'auto: each query stops once the chance that its remaining runs up to max would change its pass/fail is under 5%; max defaults to 6 (auto:10 allows 10)',
    );
    expect(flat).toContain(
      'also measure this text as the baseline, the "before" side (a file holding it, or the text), interleaved with the candidate (your SKILL.md or --description) in one paired report',
    );
    expect(flat).toContain(
      '3 no verdict: too many runs lost, or --max-cost-usd reached; the report is still written',
    );
  });

  it('skilltrigger, help and --help print the overall usage, which points at the command help', async () => {
    for (const args of [[], ['help'], ['--help'], ['-h']]) {
      const r = await runCli(args, { env: env() });
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(`${USAGE}\n`);
    }
    expect(USAGE).toContain(
      'Every option of a command: skilltrigger <command> --help (or skilltrigger help <command>).',
    );
  });

  it('the overall usage lists every option of every command, --version and help', async () => {
    for (const name of COMMAND_NAMES) {
      for (const o of COMMAND_HELP[name].options) {
        const synopsis = USAGE.split('\n').filter((l) => l.startsWith(`  skilltrigger ${name} `));
        expect(synopsis, name).toHaveLength(1);
        const block = USAGE.slice(USAGE.indexOf(`  skilltrigger ${name} `)).split(/\n {2}skilltrigger /)[0];
        expect(block, `${name} --${o.name}`).toContain(`--${o.name}`);
      }
    }
    expect(USAGE).toContain('skilltrigger --version');
    expect(USAGE).toContain('skilltrigger <command> --help');
    for (const line of USAGE.split('\n')) expect(line.length, line).toBeLessThanOrEqual(100);
    const version = await runCli(['--version'], { env: env() });
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
  });

  it('run without --skill prints run’s usage, not the overall one', async () => {
    const r = await runCli(['run'], { env: env() });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('run needs --skill <dir>');
    expect(r.stderr).toContain('[--late N] [--prices <file>] [--max-cost-usd X] [--dry-run]');
    expect(r.stderr).toContain('(skilltrigger run --help explains every option)');
    expect(r.stderr).not.toContain('skilltrigger compare');
  });

  it('init --help says what an interrupted or failed drafting call exits with', async () => {
    const r = await runCliInProcess(['init', '--help'], { env: env() });
    expect(r.stdout).toContain(
      '  3  no draft: the call was interrupted (Ctrl-C or a signal), timed out or failed; nothing written',
    );
    expect(r.stdout).not.toMatch(/^ {2}2 /m);
  });

  it('help of a command that does not exist is a usage error', async () => {
    const r = await runCliInProcess(['help', 'measure'], { env: env() });
    expect(r.code).toBe(1);
    expect(r.stderr.split('\n')[0]).toBe('skilltrigger: there is no command "measure" to explain');
  });
});

describe('usage errors: exact message, exit 1, nothing run', () => {
  const cases: { what: string; args: () => string[]; first: string }[] = [
    {
      what: '--workers says why it does not exist',
      args: () => ['run', '--skill', skill, '--eval', evalFile, '--workers', '4'],
      first:
        'skilltrigger: unknown option --workers: skilltrigger runs strictly one claude at a time. Parallel workers each install a stub with the same description, the model loads whichever it likes, and each worker counts only its own: ten workers measure about a tenth of the true rate. A detected run ends in seconds; to spend fewer runs, use --runs auto',
    },
    {
      what: '--workers=4 too',
      args: () => ['run', '--workers=4'],
      first: 'skilltrigger: unknown option --workers: skilltrigger runs strictly one claude at a time.',
    },
    {
      what: '--runs 0 mentions auto',
      args: () => ['run', '--skill', skill, '--eval', evalFile, '--runs', '0'],
      first:
        'skilltrigger: --runs must be a whole number from 1 to 100, or auto (stop each query once it is settled, at most 6 runs) or auto:<max>; got "0"',
    },
    {
      what: '--runs abc mentions auto',
      args: () => ['run', '--skill', skill, '--eval', evalFile, '--runs', 'abc'],
      first:
        'skilltrigger: --runs must be a whole number from 1 to 100, or auto (stop each query once it is settled, at most 6 runs) or auto:<max>; got "abc"',
    },
    {
      what: '--runs auto:1 names the range of the maximum',
      args: () => ['run', '--skill', skill, '--eval', evalFile, '--runs', 'auto:1'],
      first:
        'skilltrigger: --runs auto:<max> must have a max that is a whole number from 2 to 100; got "auto:1"',
    },
    {
      what: '--timeout -1 gets the project message, not "argument is ambiguous"',
      args: () => ['run', '--skill', skill, '--eval', evalFile, '--timeout', '-1'],
      first: 'skilltrigger: --timeout must be a number of seconds from 5 to 3600; got "-1"',
    },
    {
      what: '--timeout=-1 as well',
      args: () => ['run', '--skill', skill, '--eval', evalFile, '--timeout=-1'],
      first: 'skilltrigger: --timeout must be a number of seconds from 5 to 3600; got "-1"',
    },
    {
      what: 'a repeated --skill is an error, not "the last one wins"',
      args: () => ['run', '--skill', 'a', '--skill', 'b', '--eval', evalFile],
      first:
        'skilltrigger: --skill was given twice ("a", then "b"); run takes one. Fix: keep one --skill <dir>',
    },
    {
      what: 'a repeated --model on preflight',
      args: () => ['preflight', '--model', 'opus', '--model=sonnet'],
      first:
        'skilltrigger: --model was given twice ("opus", then "sonnet"); preflight takes one. Fix: keep one --model <M>',
    },
    {
      what: 'a value that is forgotten (the next token is an option)',
      args: () => ['run', '--skill', '--eval', evalFile],
      first: 'skilltrigger: --skill needs a value: --skill <dir>',
    },
    {
      what: 'a value at the very end',
      args: () => ['run', '--skill', skill, '--eval', evalFile, '--runs'],
      first: 'skilltrigger: --runs needs a value: --runs N|auto[:max]',
    },
    {
      what: 'a value given to a switch',
      args: () => ['run', '--skill', skill, '--eval', evalFile, '--debug=yes'],
      first: 'skilltrigger: --debug is a switch and takes no value; got "--debug=yes"',
    },
    {
      what: 'an unknown option lists the ones there are',
      args: () => ['compare', 'a.json', '--csv'],
      first:
        'skilltrigger: unknown option --csv for compare; it takes --json, --fail-on-regression (skilltrigger compare --help explains every option)',
    },
    {
      what: 'a mistyped option names the one it most likely meant',
      args: () => ['run', '--skill', skill, '--eval', evalFile, '--run', '3'],
      first:
        'skilltrigger: unknown option --run for run: did you mean --runs? (skilltrigger run --help explains every option)',
    },
    {
      what: 'a mistyped command names the one it most likely meant',
      args: () => ['improv', '--skill', skill],
      first: 'skilltrigger: unknown command "improv": did you mean improve?',
    },
    {
      what: 'an unknown short option',
      args: () => ['check', '-x'],
      first:
        'skilltrigger: unknown option -x for check; it takes --skill, --eval, --claude, --roster, --model, --agent, --codex (skilltrigger check --help explains every option)',
    },
  ];
  for (const c of cases) {
    it(c.what, async () => {
      const r = await runCliInProcess(c.args(), { env: env() });
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr.startsWith(c.first)).toBe(true);
      expect(r.stderr).not.toMatch(/ambiguous|ERR_PARSE_ARGS|\n\s+at /);
    });
  }

  it('check still takes --skill and --eval more than once', async () => {
    const r = await runCli(['check', '--skill', skill, '--skill', skill, '--eval', evalFile], { env: env() });
    expect(r.stdout.match(/^ok {4}.*SKILL\.md: skill "handoff"/gm)).toHaveLength(2);
  });
});

describe('compare', () => {
  async function save(name: string, report: unknown): Promise<string> {
    const file = path.join(work, name);
    await writeFile(file, JSON.stringify(report));
    return file;
  }

  it('two reports with no query in common: exit 1 with the reason, not "Overall: noise"', async () => {
    const other = fixtureMeasurement([
      { query: 'convert this video to gif', shouldTrigger: true, outcomes: ['triggered', 'triggered'] },
      { query: 'what is the weather', shouldTrigger: false, outcomes: ['not-triggered', 'not-triggered'] },
    ]);
    const a = await save('pdf.json', reportFixture());
    const b = await save('gif.json', reportFixture({ skill: 'gif-maker', candidate: other }));
    const r = await runCliInProcess(['compare', a, b], { env: env() });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'skilltrigger: pdf.json and gif.json have no query in common (of skills "pdf-tables" and "gif-maker"; 8 only in pdf.json, 2 only in gif.json), so there is nothing to compare. Fix: compare two reports measured on the same eval set\n',
    );
  });

  it('says SIMULATED first in text and simulated: true in --json when both sides are simulated', async () => {
    const a = await save('sim-a.json', reportFixture({ simulated: true }));
    const b = await save('sim-b.json', reportFixture({ simulated: true }));
    const text = await runCliInProcess(['compare', a, b], { env: env() });
    expect(text.code).toBe(0);
    expect(text.stdout.split('\n')[0]).toBe(
      "SIMULATED: both sides were answered by skilltrigger's simulated model, not by Claude; the numbers show the tool at work, not the skill.",
    );
    const json = await runCliInProcess(['compare', a, b, '--json'], { env: env() });
    expect(JSON.parse(json.stdout)).toMatchObject({ simulated: true });
    // One real side: no SIMULATED headline (the environment warning says which side is which).
    const real = await save('real.json', reportFixture());
    const mixed = await runCliInProcess(['compare', real, b], { env: env() });
    expect(mixed.stdout).not.toMatch(/^SIMULATED/);
    expect(
      JSON.parse((await runCliInProcess(['compare', real, b, '--json'], { env: env() })).stdout),
    ).toMatchObject({
      simulated: false,
    });
  });
});
