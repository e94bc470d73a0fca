import { describe, expect, it } from 'vitest';
import {
  codexRoster,
  judgeCodexAuth,
  judgeCodexCli,
  judgeCodexConflict,
  judgeCodexRoster,
  judgeCodexRoundTrip,
} from '../../../src/agents/codex/gate-rules.js';
import { renderGate } from '../../../src/preflight/render.js';

describe('the Codex gates, as rules', () => {
  it('cli: a version passes; none fails with the install fix', () => {
    expect(judgeCodexCli('codex', '0.169.0')).toEqual({ gate: 'cli', status: 'ok', reason: 'codex 0.169.0' });
    const missing = judgeCodexCli('/no/codex', undefined);
    expect(missing.status).toBe('fail');
    expect(missing.reason).toContain('/no/codex');
    expect(missing.fix).toMatch(/@openai\/codex.*--codex <path>/);
  });

  it('auth: a key in the environment passes, naming the variable and never the key', () => {
    const ok = judgeCodexAuth({
      keySource: 'CODEX_API_KEY',
      baseUrl: 'https://api.openai.com/v1',
      storedLogin: true,
    });
    expect(ok).toMatchObject({
      status: 'ok',
      reason: 'key from CODEX_API_KEY, for https://api.openai.com/v1',
    });
  });

  it('auth: a login stored by `codex login` does not reach the runs, and the gate says why', () => {
    const stored = judgeCodexAuth({ storedLogin: true });
    expect(stored.status).toBe('fail');
    expect(stored.reason).toMatch(/throwaway CODEX_HOME/);
    expect(stored.reason).toMatch(/ChatGPT sign-in/);
    expect(stored.fix).toMatch(/export CODEX_API_KEY=/);
    const none = judgeCodexAuth({ storedLogin: false });
    expect(none).toMatchObject({
      status: 'fail',
      reason: 'no CODEX_API_KEY or OPENAI_API_KEY in the environment',
    });
  });

  it('round-trip: an answer passes; an error or a timeout fails with a fix by cause', () => {
    expect(judgeCodexRoundTrip({ kind: 'not-triggered' }, 'gpt-x', 60_000)).toMatchObject({
      status: 'ok',
      reason: 'the provider (model gpt-x) answered through codex exec',
    });
    const refused = judgeCodexRoundTrip({ kind: 'error', cause: 'auth', status: 401 }, undefined, 60_000);
    expect(refused).toMatchObject({
      status: 'fail',
      reason: 'codex exec failed against the provider: auth (HTTP 401)',
    });
    expect(refused.fix).toMatch(/key was refused/);
    expect(judgeCodexRoundTrip({ kind: 'error', cause: 'model' }, 'nope', 60_000).fix).toMatch(/--model/);
    expect(judgeCodexRoundTrip({ kind: 'timeout' }, undefined, 30_000).reason).toMatch(/in 30 s/);
  });

  const folderSkill = { name: 'pdf', place: '~/.agents/skills/pdf' };
  const listedSkill = (name: string, file: string) => ({ name, description: 'd', file });

  it('conflict: a same-named skill in a folder Codex scans fails, naming where; --allow-conflict warns', () => {
    const found = judgeCodexConflict({
      name: 'pdf',
      folders: [folderSkill],
      listed: [],
      allowConflict: false,
    });
    expect(found.status).toBe('fail');
    expect(found.reason).toContain('~/.agents/skills/pdf');
    expect(found.fix).toMatch(/move ~\/.agents\/skills\/pdf out of the way[\s\S]*--allow-conflict/);
    const allowed = judgeCodexConflict({
      name: 'pdf',
      folders: [folderSkill],
      listed: [],
      allowConflict: true,
    });
    expect(allowed.status).toBe('warn');
  });

  it('conflict: a same-named skill only in the listing (a system skill) fails too; other names pass', () => {
    const system = judgeCodexConflict({
      name: 'imagegen',
      folders: [folderSkill],
      listed: [listedSkill('imagegen', '/h/skills/.system/imagegen/SKILL.md')],
      allowConflict: false,
    });
    expect(system.status).toBe('fail');
    expect(system.reason).toMatch(/already lists a skill named "imagegen"/);
    expect(
      judgeCodexConflict({ name: 'docx', folders: [folderSkill], listed: [], allowConflict: false }).status,
    ).toBe('ok');
    expect(judgeCodexConflict({ folders: [folderSkill], listed: [], allowConflict: false }).status).toBe(
      'skip',
    );
  });

  it('roster: system skills and the rest are counted apart, the probe project left out', () => {
    const roster = codexRoster(
      [
        listedSkill('imagegen', '/t/codex-home/skills/.system/imagegen/SKILL.md'),
        listedSkill('mine', '/home/u/.agents/skills/mine/SKILL.md'),
        listedSkill('probe', '/t/project/.agents/skills/probe/SKILL.md'),
      ],
      '/t/project/.agents/skills',
    );
    expect(roster).toEqual({ system: ['imagegen'], other: ['mine'] });
    expect(judgeCodexRoster(roster, '', '0.169.0').reason).toBe(
      '1 system skill and 1 other skill beside the stub; codex 0.169.0',
    );
    expect(judgeCodexRoster(undefined, 'the listing probe failed: x')).toMatchObject({ status: 'skip' });
  });

  it('a Codex gate renders with its agent; a claude gate as before', () => {
    expect(renderGate({ gate: 'cli', status: 'ok', reason: 'codex 0.169.0', agent: 'codex' })).toBe(
      'ok    codex cli         codex 0.169.0',
    );
    expect(renderGate({ gate: 'cli', status: 'ok', reason: 'claude 2.1.328' })).toBe(
      'ok    cli         claude 2.1.328',
    );
  });
});
