import { describe, expect, it } from 'vitest';
import { codexProviderFrom, OPENAI_API_BASE } from '../../../src/agents/codex/provider.js';

describe('codexProviderFrom', () => {
  it('takes CODEX_API_KEY, else OPENAI_API_KEY, with OPENAI_BASE_URL or OpenAI', () => {
    expect(codexProviderFrom({ CODEX_API_KEY: ' k1 ', OPENAI_API_KEY: 'k2' }, 'gpt-5')).toEqual({
      provider: { baseUrl: OPENAI_API_BASE, apiKey: 'k1', model: 'gpt-5' },
      keySource: 'CODEX_API_KEY',
    });
    expect(codexProviderFrom({ OPENAI_API_KEY: 'k2', OPENAI_BASE_URL: 'http://gw/v1' })).toEqual({
      provider: { baseUrl: 'http://gw/v1', apiKey: 'k2' },
      keySource: 'OPENAI_API_KEY',
    });
  });

  it('without a key: the same base URL, an empty key, and the variable to set', () => {
    expect(codexProviderFrom({ CODEX_API_KEY: ' ', OPENAI_BASE_URL: 'http://gw/v1' })).toEqual({
      provider: { baseUrl: 'http://gw/v1', apiKey: '' },
      missing: 'CODEX_API_KEY',
    });
    expect(codexProviderFrom({}).provider.baseUrl).toBe(OPENAI_API_BASE);
  });
});
