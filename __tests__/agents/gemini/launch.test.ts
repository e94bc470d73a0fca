import { describe, expect, it } from 'vitest';
import {
  geminiArgs,
  geminiEnv,
  geminiPolicy,
  geminiSettings,
  parseGeminiVersion,
} from '../../../src/agents/gemini/launch.js';
import { foreignSecretVariables } from '../../../src/agents/registry.js';

const FOLDERS = { home: '/t/home', tmpDir: '/t/tmp' };

describe('the Gemini launch', () => {
  it('runs headless in yolo mode, with the query glued to --prompt= so a leading - stays text', () => {
    expect(geminiArgs('-m x', { apiKey: 'k', model: 'gemini-3-flash' })).toEqual([
      '--output-format',
      'stream-json',
      '--approval-mode',
      'yolo',
      '-m',
      'gemini-3-flash',
      '--prompt=-m x',
    ]);
  });

  it("drops the user's Gemini settings and sets the run's own", () => {
    const env = geminiEnv(
      {
        PATH: '/bin',
        HOME: '/home/u',
        GEMINI_API_KEY: 'users',
        GOOGLE_API_KEY: 'g',
        GOOGLE_GENAI_USE_VERTEXAI: 'true',
        GEMINI_CLI_HOME: '/home/u',
      },
      FOLDERS,
      { apiKey: 'run-key', baseUrl: 'http://127.0.0.1:1' },
    );
    expect(env).toEqual({
      PATH: '/bin',
      HOME: '/t/home',
      GEMINI_CLI_HOME: '/t/home',
      TMPDIR: '/t/tmp',
      GEMINI_API_KEY: 'run-key',
      GOOGLE_GEMINI_BASE_URL: 'http://127.0.0.1:1',
      GEMINI_CLI_TRUST_WORKSPACE: 'true',
      GEMINI_CLI_NO_RELAUNCH: 'true',
    });
  });

  it("never carries another agent's secret", () => {
    const foreign = Object.fromEntries(
      foreignSecretVariables('gemini').map((name) => [name, `user-${name}`]),
    );
    expect(Object.keys(foreign)).toEqual(expect.arrayContaining(['ANTHROPIC_API_KEY', 'OPENAI_API_KEY']));
    const env = geminiEnv({ PATH: '/bin', ...foreign }, FOLDERS, { apiKey: 'run-key' });
    expect(Object.keys(env).filter((name) => name in foreign)).toEqual([]);
    expect(env.GEMINI_API_KEY).toBe('run-key');
  });

  it('settings: the API-key login, no statistics, no update check, one attempt', () => {
    expect(JSON.parse(geminiSettings())).toEqual({
      security: { auth: { selectedType: 'gemini-api-key' } },
      privacy: { usageStatisticsEnabled: false },
      general: {
        enableAutoUpdate: false,
        enableAutoUpdateNotification: false,
        maxAttempts: 1,
        retryFetchErrors: false,
      },
    });
  });

  it('the policy refuses every call by its arguments (so the tools stay listed)', () => {
    expect(geminiPolicy()).toContain('toolName = "*"\nargsPattern = "."\ndecision = "deny"');
  });

  it('reads the bare version', () => {
    expect(parseGeminiVersion('0.61.0\n')).toBe('0.61.0');
    expect(parseGeminiVersion('Warning: x\n0.61.0')).toBe('0.61.0');
    expect(parseGeminiVersion('nothing')).toBeUndefined();
  });
});
