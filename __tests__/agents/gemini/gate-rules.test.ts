import { describe, expect, it } from 'vitest';
import {
  geminiRoster,
  judgeGeminiAuth,
  judgeGeminiConflict,
  judgeGeminiRoundTrip,
} from '../../../src/agents/gemini/gate-rules.js';

describe('the Gemini gate rules', () => {
  it('auth: a key passes; a Google sign-in alone fails with the key fix; the endpoint is masked', () => {
    const ok = judgeGeminiAuth({
      keySource: 'GEMINI_API_KEY',
      baseUrl: 'https://user:secret@gw.example/v1',
      googleLogin: false,
    });
    expect(ok.status).toBe('ok');
    expect(ok.reason).not.toContain('secret');
    const login = judgeGeminiAuth({ googleLogin: true });
    expect(login.status).toBe('fail');
    expect(login.reason).toContain('Google sign-in');
    expect(login.fix).toContain('export GEMINI_API_KEY');
    expect(judgeGeminiAuth({ googleLogin: false }).reason).toContain('no GEMINI_API_KEY');
  });

  it('round trip: an answer passes; an error or a timeout fails with a fix', () => {
    expect(judgeGeminiRoundTrip({ kind: 'not-triggered' }, 'm', 60_000).status).toBe('ok');
    const refused = judgeGeminiRoundTrip({ kind: 'error', cause: 'auth', status: 401 }, 'm', 60_000);
    expect(refused).toMatchObject({ status: 'fail' });
    expect(refused.reason).toContain('HTTP 401');
    expect(judgeGeminiRoundTrip({ kind: 'timeout' }, undefined, 60_000).reason).toContain('60 s');
  });

  it('conflict: a listed name fails (warns with --allow-conflict); a user folder warns; else ok', () => {
    const listed = [{ name: 'skill-creator' }];
    const folders = [{ name: 'pdf', place: '~/.gemini/extensions/office/skills/pdf' }];
    const judge = (name: string, allowConflict = false) =>
      judgeGeminiConflict({ name, listed, folders, allowConflict });
    expect(judge('skill-creator').status).toBe('fail');
    expect(judge('skill-creator', true).status).toBe('warn');
    expect(judge('pdf')).toMatchObject({ status: 'warn' });
    expect(judge('pdf').reason).toContain('extensions/office');
    expect(judge('xlsx').status).toBe('ok');
    expect(judgeGeminiConflict({ listed, folders, allowConflict: false }).status).toBe('skip');
  });

  it('roster: the built-in skills apart from the rest, the probe’s own left out', () => {
    const roster = geminiRoster(
      [
        { name: 'skill-creator', file: '/n/@google/gemini-cli/bundle/builtin/skill-creator/SKILL.md' },
        { name: 'mine', file: '/etc/x/skills/mine/SKILL.md' },
        { name: 'stub', file: '/t/project/.agents/skills/stub/SKILL.md' },
      ],
      '/t/project/.agents/skills',
    );
    expect(roster).toEqual({ builtIn: ['skill-creator'], other: ['mine'] });
  });
});
