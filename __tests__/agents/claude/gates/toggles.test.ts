import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InstalledPlugin } from '../../../../src/agents/claude/gates/plugin-list.js';
import { reconcileToggles, rememberToggles } from '../../../../src/agents/claude/gates/toggles.js';
import { readToggles, TOGGLES_FILE, writeToggles } from '../../../../src/agents/claude/toggles-file.js';
import { renderGate, renderReminders } from '../../../../src/preflight/render.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'skilltrigger-toggles-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const AT = new Date('2026-11-30T12:00:00.000Z');
const toggle = (id: string, scope = 'user') => ({ id, scope, skill: 'handoff', printedAt: AT.toISOString() });

describe('toggles file', () => {
  it('round-trips through an atomic write, and an empty list removes the file', async () => {
    const out = path.join(dir, 'results');
    expect(await readToggles(out)).toEqual({ toggles: [] });
    await writeToggles(out, [toggle('a@m')]);
    expect(await readToggles(out)).toEqual({ toggles: [toggle('a@m')] });
    expect(await readdir(out)).toEqual([TOGGLES_FILE]);
    await writeToggles(out, []);
    expect(await readdir(out)).toEqual([]);
  });

  it('validates on read and says what is wrong', async () => {
    const out = path.join(dir, 'bad');
    await writeToggles(out, [toggle('a@m')]);
    const file = path.join(out, TOGGLES_FILE);
    await writeFile(
      file,
      '{"schema":"skilltrigger/toggles","version":1,"toggles":[{"id":"a@m","scope":"us er"}]}',
    );
    const read = await readToggles(out);
    expect(read.toggles).toEqual([]);
    expect(read.problem).toMatch(/is not a toggles file \(toggles\.0\.scope: /);
    await writeFile(file, 'garbage');
    expect((await readToggles(out)).problem).toMatch(/is not JSON \(it starts "garbage"\)/);
    expect(await readFile(file, 'utf8')).toBe('garbage');
  });
});

describe('reconcileToggles', () => {
  const plugins: InstalledPlugin[] = [
    { id: 'off@m', scope: 'user', enabled: false },
    { id: 'on@m', scope: 'user', enabled: true },
  ];

  it('keeps a plugin still disabled, forgets one enabled again or uninstalled', () => {
    expect(reconcileToggles([toggle('off@m'), toggle('on@m'), toggle('gone@m')], plugins)).toEqual({
      keep: [toggle('off@m')],
      forgotten: [toggle('on@m'), toggle('gone@m')],
    });
  });

  it('keeps everything when the list could not be read', () => {
    expect(reconcileToggles([toggle('on@m')], undefined)).toEqual({ keep: [toggle('on@m')], forgotten: [] });
  });

  it('remembers one entry per plugin and scope', () => {
    const later = new Date('2026-12-01T00:00:00.000Z');
    expect(
      rememberToggles(
        [toggle('a@m')],
        [
          { id: 'a@m', scope: 'user' },
          { id: 'b@m', scope: 'user' },
        ],
        'x',
        later,
      ),
    ).toEqual([
      { id: 'a@m', scope: 'user', skill: 'x', printedAt: later.toISOString() },
      { id: 'b@m', scope: 'user', skill: 'x', printedAt: later.toISOString() },
    ]);
  });
});

describe('rendering', () => {
  it('prints a gate line, and the fix under it with commands on their own lines', () => {
    expect(renderGate({ gate: 'cli', status: 'ok', reason: 'claude 2.1.328' })).toBe(
      'ok    cli         claude 2.1.328',
    );
    expect(
      renderGate({
        gate: 'conflict',
        status: 'fail',
        reason: 'why',
        fix: 'disable it:\n  claude plugin disable a@m --scope user',
      }),
    ).toBe(
      [
        'fail  conflict    why',
        '      fix: disable it:',
        '             claude plugin disable a@m --scope user',
      ].join('\n'),
    );
  });

  it('prints the reminder with the exact enable commands', () => {
    expect(renderReminders([])).toBe('');
    expect(renderReminders([toggle('a@m')])).toBe(
      'reminder: a@m is still disabled for measuring "handoff"; turn it back on when you are done:\n  claude plugin enable a@m --scope user\n',
    );
    expect(renderReminders([toggle('a@m'), toggle('b@m', 'project')])).toBe(
      'reminder: 2 plugins are still disabled for measuring; turn them back on when you are done:\n  claude plugin enable a@m --scope user\n  claude plugin enable b@m --scope project\n',
    );
  });
});
