import { describe, expect, it } from 'vitest';
import { parsePluginList } from '../../../../src/agents/claude/gates/plugin-list.js';

// Shapes `claude plugin list` printed (claude 2.1.328; docs/claude-cli.md §7).
const JSON_LIST = `[
  {
    "id": "stubplug@local-mkt",
    "version": "0.1.0",
    "scope": "user",
    "enabled": true,
    "installPath": "/h/.claude/plugins/cache/local-mkt/stubplug/0.1.0",
    "readFromFolder": "/m/plugins/stubplug",
    "projectEnabled": false
  },
  { "id": "other@local-mkt", "scope": "project", "enabled": false }
]`;

const HUMAN = (status: string) => `Installed plugins:

  ❯ stubplug@local-mkt
    Version: 0.1.0
    Read from: /m/plugins/stubplug
    Scope: user
    Status: ${status}

  ❯ other@local-mkt
    Version: 1.2.0
    Scope: project
    Status: ✘ disabled
`;

describe('parsePluginList', () => {
  it('reads the JSON array, keeping id, scope, enabled and the install path', () => {
    expect(parsePluginList(JSON_LIST)).toEqual({
      kind: 'plugins',
      form: 'json',
      plugins: [
        {
          id: 'stubplug@local-mkt',
          scope: 'user',
          enabled: true,
          path: '/h/.claude/plugins/cache/local-mkt/stubplug/0.1.0',
        },
        { id: 'other@local-mkt', scope: 'project', enabled: false },
      ],
    });
    expect(parsePluginList('[]\n')).toEqual({ kind: 'plugins', form: 'json', plugins: [] });
  });

  it('reads the human form, enabled and disabled, with "Read from" as the folder to look in', () => {
    for (const [status, enabled] of [
      ['✔ enabled', true],
      ['✘ disabled', false],
    ] as const) {
      expect(parsePluginList(HUMAN(status))).toEqual({
        kind: 'plugins',
        form: 'human',
        plugins: [
          { id: 'stubplug@local-mkt', scope: 'user', enabled, path: '/m/plugins/stubplug' },
          { id: 'other@local-mkt', scope: 'project', enabled: false },
        ],
      });
    }
  });

  it('reads the human form through colour codes', () => {
    const coloured = HUMAN('\u001b[32m✔ enabled\u001b[39m').replace('❯', '\u001b[1m❯\u001b[22m');
    const list = parsePluginList(coloured);
    expect(list.kind === 'plugins' && list.plugins[0]?.enabled).toBe(true);
  });

  it('reads the "no plugins installed" line as an empty list', () => {
    expect(
      parsePluginList('No plugins installed. Use `claude plugin install` to install a plugin.\n'),
    ).toEqual({ kind: 'plugins', form: 'none', plugins: [] });
  });

  it('calls anything else unknown, quoting its first line', () => {
    expect(parsePluginList('\n  error: unknown command "plugin"\nsee --help\n')).toEqual({
      kind: 'unknown',
      quote: 'error: unknown command "plugin"',
    });
    expect(parsePluginList('')).toEqual({ kind: 'unknown', quote: '(no output)' });
    expect(parsePluginList('{"installed":[],"available":[]}')).toEqual({
      kind: 'unknown',
      quote: '{"installed":[],"available":[]}',
    });
    expect(parsePluginList('[not json')).toEqual({ kind: 'unknown', quote: '[not json' });
  });

  it('does not guess at a JSON entry or a human block missing what the toggles need', () => {
    expect(parsePluginList('[{"id":"x@m","scope":"user"}]')).toEqual({
      kind: 'unknown',
      quote: '{"id":"x@m","scope":"user"}',
    });
    expect(parsePluginList('Installed plugins:\n\n  ❯ x@m\n    Version: 1\n')).toEqual({
      kind: 'unknown',
      quote: '❯ x@m',
    });
    expect(parsePluginList('Installed plugins:\n\n  something odd here\n')).toEqual({
      kind: 'unknown',
      quote: 'something odd here',
    });
  });
});
