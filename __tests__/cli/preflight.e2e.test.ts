import { execFile } from 'node:child_process';
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOGGLES_FILE } from '../../src/agents/claude/toggles-file.js';
import { reportSchema } from '../../src/schemas/report.js';
import { GATE_QUERY, type SimulatedModel } from '../../src/simulated/model.js';
import { CLAUDE_BIN, type ClaudeEnv, makeClaudeEnv } from '../fakes/claude-env.js';
import { type CliWorld, REPO_ROOT, runCli, startCliWorld } from '../fakes/cli.js';

/**
 * The gates end to end: `skilltrigger preflight` and `run` as processes, the real claude binary,
 * the simulated model. The conflict test installs a real plugin from a real local marketplace with
 * the real `claude plugin` commands into a throwaway HOME.
 */
const SKILL = 'release-notes';
const BOGUS_MODEL = 'bogus-model-x';

const execFileAsync = promisify(execFile);
let world: CliWorld;
let work: string;
let skillDir: string;
let model: SimulatedModel;
let claude: ClaudeEnv;
let cliVersion: string;

beforeAll(async () => {
  world = await startCliWorld({
    name: 'preflight-e2e',
    model: {
      script: (req) => {
        if (req.query === GATE_QUERY) {
          return req.model === BOGUS_MODEL ? { kind: 'api-error', status: 400 } : undefined;
        }
        return req.query.includes('pos') ? { kind: 'skill' } : { kind: 'text' };
      },
    },
  });
  ({ work, model, claude } = world);
  skillDir = path.join(work, SKILL);
  await mkdir(skillDir);
  await writeFile(
    path.join(skillDir, 'SKILL.md'),
    `---\nname: ${SKILL}\ndescription: Draft release notes from the merged pull requests since the last tag\n---\n\nBody.\n`,
  );
  const pkg: unknown = JSON.parse(
    await readFile(path.join(REPO_ROOT, 'node_modules/@anthropic-ai/claude-code/package.json'), 'utf8'),
  );
  cliVersion = String((pkg as { version?: unknown }).version);
});

afterAll(async () => {
  await world?.close();
});

/** The real claude, for what a user types by hand (marketplace add, install, the printed toggles). */
async function claudeCommand(args: string[], env: NodeJS.ProcessEnv) {
  return execFileAsync(CLAUDE_BIN, args, { env, cwd: work, encoding: 'utf8' });
}

/** Every settings-like file under HOME, with its content: skilltrigger must never change one. */
async function settingsSnapshot(home: string): Promise<Record<string, string>> {
  const snapshot: Record<string, string> = {};
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'cache' && entry.name !== 'projects') await walk(file);
      } else if (/^settings.*\.json$|^installed_plugins\.json$|^known_marketplaces\.json$/.test(entry.name)) {
        snapshot[path.relative(home, file)] = await readFile(file, 'utf8');
      }
    }
  };
  await walk(path.join(home, '.claude'));
  return snapshot;
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}

async function onlyReport(out: string) {
  const json = (await readdir(out)).filter((f) => f.endsWith('.json'));
  expect(json.length).toBe(1);
  return reportSchema.parse(JSON.parse(await readFile(path.join(out, json[0] ?? ''), 'utf8')));
}

async function evalFile(name: string) {
  const file = path.join(work, `${name}.json`);
  await writeFile(
    file,
    JSON.stringify([
      { query: `${name} pos: draft the release notes for v2`, should_trigger: true },
      { query: `${name} neg: fix the flaky test`, should_trigger: false },
    ]),
  );
  return file;
}

/** The line of a command printed on its own (the fix and the reminder print them indented). */
function printed(text: string, verb: 'disable' | 'enable'): string[] {
  return [...text.matchAll(new RegExp(`^\\s+(claude plugin ${verb} \\S+ --scope \\S+)$`, 'gm'))].map(
    (m) => m[1] ?? '',
  );
}

describe('gates end to end', () => {
  it('a real plugin with the same skill: fail with the toggles, remind after disabling, --allow-conflict measures and records it', async () => {
    // A local marketplace, added and installed with the real commands (docs/claude-cli.md §7).
    const mkt = path.join(work, 'mkt');
    const plugin = path.join(mkt, 'plugins', 'stubplug');
    await mkdir(path.join(mkt, '.claude-plugin'), { recursive: true });
    await mkdir(path.join(plugin, '.claude-plugin'), { recursive: true });
    await mkdir(path.join(plugin, 'skills', SKILL), { recursive: true });
    await writeFile(
      path.join(mkt, '.claude-plugin', 'marketplace.json'),
      JSON.stringify({
        name: 'local-mkt',
        owner: { name: 'Tests' },
        plugins: [
          { name: 'stubplug', source: './plugins/stubplug', description: 'a plugin', version: '0.1.0' },
        ],
      }),
    );
    await writeFile(
      path.join(plugin, '.claude-plugin', 'plugin.json'),
      JSON.stringify({ name: 'stubplug', version: '0.1.0', description: 'a plugin' }),
    );
    await writeFile(
      path.join(plugin, 'skills', SKILL, 'SKILL.md'),
      `---\nname: ${SKILL}\ndescription: The installed copy of the skill\n---\n\nBody.\n`,
    );
    const tmp = path.join(work, 'tmp-conflict');
    await mkdir(tmp);
    const env = { ...claude.env, TMPDIR: tmp };
    await claudeCommand(['plugin', 'marketplace', 'add', mkt, '--json'], env);
    await claudeCommand(['plugin', 'install', 'stubplug@local-mkt', '--json'], env);
    const out = path.join(work, 'out-conflict');
    const toggles = path.join(out, TOGGLES_FILE);

    // 1. Preflight fails, printing both commands and running neither.
    let before = await settingsSnapshot(claude.home);
    expect(Object.keys(before)).toContain(path.join('.claude', 'settings.json'));
    const refused = await runCli(['preflight', '--skill', skillDir, '--out', out, '--claude', CLAUDE_BIN], {
      env,
    });
    expect(refused.code).toBe(2);
    expect(refused.stdout).toMatch(
      /^fail {2}conflict {4}the enabled plugin stubplug@local-mkt \(user scope\) has skill "release-notes"/m,
    );
    expect(printed(refused.stdout, 'disable')).toEqual([
      'claude plugin disable stubplug@local-mkt --scope user',
    ]);
    expect(printed(refused.stdout, 'enable')).toEqual([
      'claude plugin enable stubplug@local-mkt --scope user',
    ]);
    expect(refused.stdout).not.toContain('reminder:');
    expect(await settingsSnapshot(claude.home)).toEqual(before);
    expect(await exists(toggles)).toBe(true);

    // 2. The user runs the printed disable; now the preflight passes and reminds.
    const [disable] = printed(refused.stdout, 'disable');
    await claudeCommand((disable ?? '').split(' ').slice(1), env);
    before = await settingsSnapshot(claude.home);
    const passed = await runCli(['preflight', '--skill', skillDir, '--out', out, '--claude', CLAUDE_BIN], {
      env,
    });
    expect(passed.code).toBe(0);
    expect(passed.stdout).toMatch(/^ok {4}conflict {4}nothing besides the stub answers to "release-notes"/m);
    expect(passed.stdout).toMatch(
      /reminder: stubplug@local-mkt is still disabled[^\n]*\n {2}claude plugin enable stubplug@local-mkt --scope user\n$/,
    );

    // 3. A run reminds at its end too; nothing is allowed, nothing conflicts.
    const measured = await runCli(
      [
        'run',
        '--skill',
        skillDir,
        '--eval',
        await evalFile('disabled'),
        '--runs',
        '1',
        '--out',
        out,
        '--claude',
        CLAUDE_BIN,
      ],
      { env },
    );
    expect(measured.stderr).not.toMatch(/unexpected error/);
    expect(measured.code).toBe(0);
    expect(measured.stderr).toMatch(/claude plugin enable stubplug@local-mkt --scope user\n$/);
    expect((await onlyReport(out)).conflictAllowed).toBe(false);
    expect(await settingsSnapshot(claude.home)).toEqual(before);

    // 4. Re-enabled: the reminder stops; --allow-conflict measures anyway and says so in the report.
    const [enable] = printed(passed.stdout, 'enable');
    await claudeCommand((enable ?? '').split(' ').slice(1), env);
    before = await settingsSnapshot(claude.home);
    const allowedOut = path.join(work, 'out-allowed');
    await mkdir(allowedOut);
    await writeFile(path.join(allowedOut, TOGGLES_FILE), await readFile(toggles));
    const allowed = await runCli(
      [
        'run',
        '--skill',
        skillDir,
        '--eval',
        await evalFile('allowed'),
        '--runs',
        '1',
        '--out',
        allowedOut,
        '--allow-conflict',
        '--claude',
        CLAUDE_BIN,
      ],
      { env },
    );
    expect(allowed.code).toBe(0);
    expect(allowed.stderr).toMatch(
      /^warn {2}conflict {4}the enabled plugin stubplug@local-mkt[^\n]*measuring anyway/m,
    );
    expect(allowed.stderr).not.toContain('reminder:');
    const report = await onlyReport(allowedOut);
    expect(report.conflictAllowed).toBe(true);
    // The gates' findings in the report: the CLI version and the stub-less roster (the plugin's skill in it).
    expect(report.cli.version).toBe(cliVersion);
    expect(report.roster?.skills).toBeGreaterThan(0);
    expect(report.environment).toEqual({ memoryFiles: { project: 0, user: 0 }, hooks: 0, mcpServers: 0 });
    expect(report.candidate.totals.executed).toBe(2);
    // Enabled again: the remembered toggle is forgotten, and --allow-conflict remembers nothing new.
    expect(await exists(path.join(allowedOut, TOGGLES_FILE))).toBe(false);
    expect(await settingsSnapshot(claude.home)).toEqual(before);
    expect((await readdir(tmp)).filter((n) => n.startsWith('skilltrigger-'))).toEqual([]);
  }, 300_000);

  it('an unknown model fails the round-trip with a fix naming --model and the CLI version', async () => {
    const r = await runCli(
      ['preflight', '--model', BOGUS_MODEL, '--claude', CLAUDE_BIN, '--out', path.join(work, 'out-model')],
      {
        env: claude.env,
      },
    );
    expect(r.code).toBe(2);
    const line = r.stdout.split('\n').findIndex((l) => l.startsWith('fail  round-trip'));
    expect(r.stdout.split('\n')[line]).toBe(
      `fail  round-trip  the API does not know the model "${BOGUS_MODEL}": API Error: 400 model: ${BOGUS_MODEL}`,
    );
    const fix = r.stdout.split('\n')[line + 1] ?? '';
    expect(fix).toMatch(/^ {6}fix: .*--model/);
    expect(fix).toContain(`claude ${cliVersion}`);
    expect(r.stdout).toMatch(/^ok {4}cli {9}claude \d+\.\d+\.\d+$/m);
    expect(r.stdout).toMatch(/^ok {4}roster {6}\d+ slash commands and \d+ skills/m);
  }, 120_000);

  it('no key and an empty HOME fail the auth gate; the round-trip is skipped', async () => {
    const bare = await makeClaudeEnv(model);
    try {
      const env = { ...bare.env };
      delete env.ANTHROPIC_API_KEY;
      const requestsBefore = model.requests.length;
      const r = await runCli(['preflight', '--claude', CLAUDE_BIN, '--out', path.join(work, 'out-auth')], {
        env,
      });
      expect(r.code).toBe(2);
      // The round trip starts beside the auth gate (docs/speed.md): without a login it sends no
      // request, so nothing reached the model.
      expect(model.requests.length).toBe(requestsBefore);
      expect(r.stdout).toMatch(
        /^fail {2}auth {8}`claude auth status` says not logged in\n {6}fix: log in with `claude auth login`/m,
      );
      expect(r.stdout).toMatch(/^skip {2}round-trip {2}needs a login/m);
      expect(r.stdout).toMatch(/^skip {2}roster/m);
    } finally {
      await bare.cleanup();
    }
  }, 120_000);

  it('a missing CLI fails the cli gate and skips the rest', async () => {
    const r = await runCli(
      ['preflight', '--claude', '/nonexistent/claude', '--out', path.join(work, 'out-cli')],
      {
        env: claude.env,
      },
    );
    expect(r.code).toBe(2);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe(
      'fail  cli         the Claude CLI could not be started as "/nonexistent/claude" (ENOENT)',
    );
    expect(lines[1]).toMatch(/^ {6}fix: install the Claude CLI .* --claude <path>/);
    for (const gate of ['auth', 'round-trip', 'conflict', 'sleep', 'roster']) {
      expect(r.stdout).toMatch(new RegExp(`^skip  ${gate} +needs a working Claude CLI`, 'm'));
    }
  });

  it('run refuses on a failed gate: exit 2, the gate and its fix on stderr, no eval query sent, no report', async () => {
    // A HOME of its own: the conflict test leaves a plugin installed in the shared one.
    const fresh = await makeClaudeEnv(model);
    const seen = model.requests.length;
    const out = path.join(work, 'out-refused');
    const tmp = path.join(work, 'tmp-refused');
    await mkdir(tmp);
    const r = await runCli(
      [
        'run',
        '--skill',
        skillDir,
        '--eval',
        await evalFile('refused'),
        '--model',
        BOGUS_MODEL,
        '--out',
        out,
        '--claude',
        CLAUDE_BIN,
      ],
      { env: { ...fresh.env, TMPDIR: tmp } },
    ).finally(() => fresh.cleanup());
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^fail {2}round-trip {2}the API does not know the model/m);
    expect(r.stderr).toMatch(/fix: .*--model/);
    expect(r.stderr).toContain('skilltrigger: preflight failed (round-trip); nothing was measured');
    const queries = model.requests.slice(seen).map((q) => q.view?.query);
    expect(queries.length).toBeGreaterThan(0);
    expect(queries.every((q) => q === GATE_QUERY)).toBe(true);
    expect(await exists(out)).toBe(false);
    expect((await readdir(tmp)).filter((n) => n.startsWith('skilltrigger-'))).toEqual([]);
  }, 120_000);
});
