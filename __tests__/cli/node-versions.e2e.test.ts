import { execFileSync } from 'node:child_process';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderCommandHelp } from '../../src/cli/help/help.js';
import { reportSchema } from '../../src/schemas/report.js';
import { installNode } from '../action/harness.js';
import { CLAUDE_BIN, type ClaudeEnv } from '../fakes/claude-env.js';
import { type CliWorld, REPO_ROOT, runCli, startCliWorld } from '../fakes/cli.js';
import { pairedReportFixture } from '../fakes/report-fixture.js';

/**
 * The CLI's entry under every Node it supports (package.json `engines`: >=20.5; README says the
 * same): Node 20 (this process when it is 20, else npm `node@20`), 22 and 24 (npm `node@22`,
 * `node@24`, installed once by the global setup). Each runs the real bin: --version, help, a usage
 * error, check, compare, and one small run through the real claude against the simulated model.
 */
const VERSIONS = [20, 22, 24] as const;
const PACKAGE_VERSION = (
  JSON.parse(await readFile(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }
).version;

function nodeBinary(major: number): string {
  return process.version.startsWith(`v${major}.`) ? process.execPath : installNode(major);
}

let world: CliWorld;
let work: string;
let claude: ClaudeEnv;

beforeAll(async () => {
  world = await startCliWorld({
    name: 'node-versions',
    model: {
      seed: 3,
      script: (req) => (req.query.startsWith('nv-pos') ? { kind: 'skill' } : { kind: 'text' }),
    },
  });
  ({ work, claude } = world);
  await mkdir(path.join(work, 'handoff'));
  await writeFile(
    path.join(work, 'handoff', 'SKILL.md'),
    '---\nname: handoff\ndescription: Write HANDOFF.md so a fresh session can resume the work\n---\n',
  );
  await writeFile(
    path.join(work, 'evals.json'),
    JSON.stringify([
      { query: 'nv-pos: write the handoff', should_trigger: true },
      { query: 'nv-neg: what time is it', should_trigger: false },
    ]),
  );
  await writeFile(path.join(work, 'paired.json'), JSON.stringify(pairedReportFixture()));
});

afterAll(async () => {
  await world?.close();
});

describe.each(VERSIONS)('the CLI under Node %i', (major) => {
  it('answers --version, help, a usage error, check and compare', async () => {
    const node = nodeBinary(major);
    expect(execFileSync(node, ['--version'], { encoding: 'utf8' })).toMatch(new RegExp(`^v${major}\\.`));
    const env = { PATH: process.env.PATH ?? '', HOME: work };
    const version = await runCli(['--version'], { env, node });
    expect(version).toMatchObject({ code: 0, stdout: `${PACKAGE_VERSION}\n`, stderr: '' });
    const help = await runCli(['run', '--help'], { env, node });
    expect(help).toMatchObject({ code: 0, stdout: renderCommandHelp('run') });
    const usage = await runCli(['run', '--skill', 's', '--eval', 'e', '--runs', '0'], { env, node });
    expect(usage.code).toBe(1);
    expect(usage.stderr).toMatch(/^skilltrigger: --runs must be a whole number from 1 to 100, or auto/);
    const check = await runCli(
      ['check', '--skill', path.join(work, 'handoff'), '--eval', path.join(work, 'evals.json')],
      { env, node },
    );
    expect(check.code).toBe(0);
    expect(check.stdout).toMatch(/^clean: 0 defects, \d+ warnings\n$/m);
    const compare = await runCli(['compare', path.join(work, 'paired.json'), '--json'], { env, node });
    expect(compare.code).toBe(0);
    expect(JSON.parse(compare.stdout)).toMatchObject({ schema: 'skilltrigger/comparison', mode: 'paired' });
  });

  it('measures a small eval set through the real claude', async () => {
    const node = nodeBinary(major);
    const out = path.join(work, `out-${major}`);
    const r = await runCli(
      [
        'run',
        '--skill',
        path.join(work, 'handoff'),
        '--eval',
        path.join(work, 'evals.json'),
        '--runs',
        '1',
        '--out',
        out,
        '--claude',
        CLAUDE_BIN,
      ],
      { env: claude.env, node },
    );
    expect(r.stderr).not.toMatch(/unexpected error/);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      'positives triggered 1/1 · negatives fired 0/1 · 0 timeouts, 0 errors counted apart · 2/2 queries pass\n',
    );
    const file = (await readdir(out)).find((f) => f.endsWith('.json')) ?? '';
    const report = reportSchema.parse(JSON.parse(await readFile(path.join(out, file), 'utf8')));
    expect(report.verdict).toBe('ok');
  }, 180_000);
});
