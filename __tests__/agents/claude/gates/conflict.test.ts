import { describe, expect, it } from 'vitest';
import {
  type Conflict,
  collectConflicts,
  judgeConflict,
  rosterHits,
  shellWord,
  toggleCommands,
} from '../../../../src/agents/claude/gates/conflict.js';
import type { InstalledPlugin } from '../../../../src/agents/claude/gates/plugin-list.js';

const PLUGINS: InstalledPlugin[] = [
  { id: 'stubplug@local-mkt', scope: 'user', enabled: true, path: '/p/stubplug' },
  { id: 'quiet@local-mkt', scope: 'user', enabled: false, path: '/p/quiet' },
];
const init = (names: string[]) => ({ slashCommands: ['dataviz', ...names], skills: names, mcpServers: 0 });

describe('collectConflicts', () => {
  it('names roster entries that answer to the skill, bare or after a prefix', () => {
    expect(
      rosterHits(init(['stubplug:handoff', 'handoff', 'handoffs', 'x:handoff-notes']), 'handoff'),
    ).toEqual(['stubplug:handoff', 'handoff']);
  });

  it('joins the install-path scan and the roster into one toggle per enabled plugin', () => {
    const conflicts = collectConflicts({
      name: 'handoff',
      plugins: PLUGINS,
      scans: new Map([
        ['stubplug@local-mkt', ['skill "handoff"']],
        ['quiet@local-mkt', ['skill "handoff"']],
      ]),
      init: init(['stubplug:handoff']),
      initPlugins: [{ name: 'stubplug', source: 'stubplug@local-mkt' }],
    });
    expect(conflicts).toEqual([
      {
        kind: 'plugin',
        plugin: { id: 'stubplug@local-mkt', scope: 'user' },
        where: ['skill "handoff"', 'roster entry "stubplug:handoff"'],
      },
    ]);
  });

  it('traces an unlisted plugin through the init event, and keeps a bare entry as a conflict without a toggle', () => {
    const conflicts = collectConflicts({
      name: 'handoff',
      plugins: [],
      scans: new Map(),
      init: init(['cc-plugin-x:handoff', 'handoff']),
      initPlugins: [{ name: 'cc-plugin-x', source: 'cc-plugin-x@builtin' }],
      place: '~/.claude/skills/handoff',
    });
    expect(conflicts).toEqual([
      {
        kind: 'plugin',
        plugin: { id: 'cc-plugin-x@builtin', scope: 'user' },
        where: ['roster entry "cc-plugin-x:handoff"'],
      },
      { kind: 'loaded', entry: 'handoff', place: '~/.claude/skills/handoff' },
    ]);
  });
});

describe('judgeConflict', () => {
  const list = { kind: 'plugins', form: 'json', plugins: PLUGINS } as const;
  const conflict: Conflict = {
    kind: 'plugin',
    plugin: { id: 'stubplug@local-mkt', scope: 'user' },
    where: ['skill "handoff"'],
  };

  it('fails a conflict with the exact disable and enable commands, on lines of their own', () => {
    const gate = judgeConflict({ list, name: 'handoff', conflicts: [conflict], allowConflict: false });
    expect(gate.status).toBe('fail');
    expect(gate.reason).toBe(
      'the enabled plugin stubplug@local-mkt (user scope) has skill "handoff": the model would choose between it and the stub',
    );
    expect(gate.fix?.split('\n')).toEqual([
      'disable it while measuring (skilltrigger runs neither command):',
      '  claude plugin disable stubplug@local-mkt --scope user',
      'and turn it back on afterwards:',
      '  claude plugin enable stubplug@local-mkt --scope user',
      'or measure with it in place: --allow-conflict (the report records it)',
    ]);
  });

  it('warns under --allow-conflict, still showing the commands', () => {
    const gate = judgeConflict({ list, name: 'handoff', conflicts: [conflict], allowConflict: true });
    expect(gate.status).toBe('warn');
    expect(gate.reason).toMatch(/measuring anyway \(--allow-conflict, recorded in the report\)$/);
    expect(gate.fix).toContain('claude plugin disable stubplug@local-mkt --scope user');
  });

  it('fails a conflict it has no toggle for, saying where it comes from', () => {
    const gate = judgeConflict({
      list,
      name: 'handoff',
      conflicts: [{ kind: 'loaded', entry: 'handoff', place: '~/.claude/skills/handoff' }],
      allowConflict: false,
    });
    expect(gate.reason).toMatch(/^the model already sees "handoff" \(from ~\/\.claude\/skills\/handoff\)/);
    expect(gate.fix).toMatch(/^move ~\/\.claude\/skills\/handoff out of the way while measuring/);
  });

  it('fails an unknown list quoting its first line, or warns under --allow-conflict', () => {
    const unknown = { kind: 'unknown', quote: 'Plugins: 3 (see details)' } as const;
    expect(
      judgeConflict({ list: unknown, name: 'handoff', conflicts: [], allowConflict: false }),
    ).toMatchObject({
      status: 'fail',
      reason: '`claude plugin list --json` printed something unknown: "Plugins: 3 (see details)"',
    });
    expect(judgeConflict({ list: unknown, name: 'handoff', conflicts: [], allowConflict: true }).status).toBe(
      'warn',
    );
  });

  it('passes when nothing answers to the name, and without a name only counts plugins', () => {
    expect(judgeConflict({ list, name: 'handoff', conflicts: [], allowConflict: false })).toEqual({
      gate: 'conflict',
      status: 'ok',
      reason: 'nothing besides the stub answers to "handoff" (1 of 2 installed plugins enabled)',
    });
    expect(judgeConflict({ list, conflicts: [], allowConflict: false }).reason).toBe(
      '1 of 2 installed plugins enabled; no --skill given, so no name to check',
    );
  });

  it('quotes ids a shell would misread', () => {
    expect(shellWord('stubplug@local-mkt')).toBe('stubplug@local-mkt');
    expect(shellWord("we'ird $x")).toBe(`'we'\\''ird $x'`);
    expect(toggleCommands({ id: 'a b@m', scope: 'user' }).enable).toBe(
      "claude plugin enable 'a b@m' --scope user",
    );
  });
});
