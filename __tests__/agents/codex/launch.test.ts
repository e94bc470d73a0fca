import { describe, expect, it } from 'vitest';
import {
  codexArgs,
  codexConfigToml,
  codexEnv,
  codexSpawnPlan,
  parseCodexVersion,
} from '../../../src/agents/codex/launch.js';
import { codexListedDescription, codexListedName } from '../../../src/agents/codex/listing.js';
import { foreignSecretVariables } from '../../../src/agents/registry.js';

const PROVIDER = { baseUrl: 'http://127.0.0.1:9/v1', apiKey: 'sk-secret', model: 'gpt-x' };
const FOLDERS = { codexHome: '/t/codex-home', tmpDir: '/t/tmp' };

describe('the Codex launch', () => {
  it('exec --json with the model and the query after --; no endpoint and no key on the command line', () => {
    const args = codexArgs('-starts with a dash', PROVIDER);
    // The session rollout is written (the decision reads it); only the listing probe starts ephemeral.
    expect(args.slice(0, 2)).toEqual(['exec', '--json']);
    expect(args).not.toContain('--ephemeral');
    expect(codexArgs('q', PROVIDER, { ephemeral: true }).slice(0, 3)).toEqual([
      'exec',
      '--json',
      '--ephemeral',
    ]);
    expect(args.join(' ')).toContain('--disable plugins');
    expect(args.slice(-2)).toEqual(['--', '-starts with a dash']);
    expect(args).toEqual(expect.arrayContaining(['-m', 'gpt-x']));
    expect(args.join(' ')).not.toMatch(/127\.0\.0\.1|sk-secret|model_provider/);
  });

  it("the provider goes in the run's config.toml, without the key", () => {
    const config = codexConfigToml(PROVIDER);
    expect(config).toContain('model_provider = "skilltrigger"');
    expect(config).toContain('[model_providers.skilltrigger]');
    expect(config).toContain('base_url = "http://127.0.0.1:9/v1"');
    expect(config).toContain('env_key = "CODEX_API_KEY"');
    expect(config).toContain('supports_websockets = false');
    expect(config).toContain('request_max_retries = 0');
    expect(config).not.toContain('sk-secret');
  });

  it("the environment: the run's CODEX_HOME, TMPDIR and key; never the user's Codex settings", () => {
    const env = codexEnv(
      { PATH: '/bin', CODEX_HOME: '/home/u/.codex', OPENAI_API_KEY: 'sk-user', HOME: '/home/u' },
      FOLDERS,
      PROVIDER,
    );
    expect(env).toEqual({
      PATH: '/bin',
      HOME: '/home/u',
      CODEX_HOME: '/t/codex-home',
      TMPDIR: '/t/tmp',
      CODEX_API_KEY: 'sk-secret',
    });
  });

  it("a run starts from the environment it was handed, never from this process's own", () => {
    const only = 'SKILLTRIGGER_TEST_PROCESS_ONLY';
    process.env[only] = 'this process only';
    try {
      const project = { ...FOLDERS, dir: '/t/project' };
      const handed = { PATH: '/bin', SKILLTRIGGER_TEST_HANDED_ONLY: 'handed', OPENAI_API_KEY: 'sk-user' };
      const cold = codexSpawnPlan('q', { provider: PROVIDER, baseEnv: handed }, project);
      expect(cold.env).toEqual({
        PATH: '/bin',
        SKILLTRIGGER_TEST_HANDED_ONLY: 'handed',
        CODEX_HOME: '/t/codex-home',
        TMPDIR: '/t/tmp',
        CODEX_API_KEY: 'sk-secret',
      });
      expect(cold.cwd).toBe('/t/project');
      expect(cold.args).toEqual(codexArgs('q', PROVIDER));
      // A standby's (the prompt on stdin) and a resumed run's start the same way.
      const resumed = codexSpawnPlan('-', { provider: PROVIDER, baseEnv: handed, resume: 'th-1' }, project);
      expect(resumed.env).toEqual(cold.env);
      expect(resumed.args).toEqual(codexArgs('-', PROVIDER, { resume: 'th-1' }));
    } finally {
      delete process.env[only];
    }
  });

  it("never carries another agent's secret: a command the model runs could print it", () => {
    const foreign = Object.fromEntries(foreignSecretVariables('codex').map((name) => [name, `user-${name}`]));
    expect(Object.keys(foreign)).toEqual(expect.arrayContaining(['ANTHROPIC_API_KEY', 'GEMINI_API_KEY']));
    expect(codexEnv({ PATH: '/bin', ...foreign }, FOLDERS, PROVIDER)).toEqual({
      PATH: '/bin',
      CODEX_HOME: '/t/codex-home',
      TMPDIR: '/t/tmp',
      CODEX_API_KEY: 'sk-secret',
    });
  });

  it('reads the version line', () => {
    expect(parseCodexVersion('codex-cli 0.169.0\n')).toBe('0.169.0');
    expect(parseCodexVersion('something else')).toBeUndefined();
  });
});

describe('what Codex lists for a SKILL.md (observed on 0.169.0)', () => {
  it('whitespace runs become one space', () => {
    expect(codexListedDescription('line one\nline two   spaced\ttab ')).toBe('line one line two spaced tab');
  });

  it('over 1,024 characters: the first 1,021 and "..."', () => {
    const long = Array.from({ length: 300 }, (_, i) => `w${String(i).padStart(4, '0')}`).join(' ');
    const listed = codexListedDescription(long);
    expect(listed).toHaveLength(1024);
    expect(listed.endsWith('w0169 w...')).toBe(true);
    expect(codexListedDescription('x'.repeat(1024))).toBe('x'.repeat(1024));
  });

  it('the name is the frontmatter name, else the folder', () => {
    expect(codexListedName('other-name', 'dirname')).toBe('other-name');
    expect(codexListedName(undefined, 'noname')).toBe('noname');
  });
});
