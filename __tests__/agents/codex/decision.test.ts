import { describe, expect, it } from 'vitest';
import { shellWords, skillUse } from '../../../src/agents/codex/command.js';
import {
  CodexDecider,
  type CodexSiblingIdentity,
  type CodexStubIdentity,
  codexApiError,
} from '../../../src/agents/codex/decision.js';
import { parseCodexEvent } from '../../../src/agents/codex/events.js';
import type { Outcome } from '../../../src/outcome.js';

const PROJECT = '/tmp/skilltrigger-x/project';
const STUB: CodexStubIdentity = {
  name: 'pdf-stub-1a2b3c4d',
  filePath: `${PROJECT}/.agents/skills/pdf-stub-1a2b3c4d/SKILL.md`,
  aliases: ['/private/tmp/skilltrigger-x/project/.agents/skills/pdf-stub-1a2b3c4d/SKILL.md'],
  listedFile: 'pdf-stub-1a2b3c4d/SKILL.md',
  projectDir: PROJECT,
};
const SIBLING: CodexSiblingIdentity = {
  name: 'xlsx-stub-99aa88bb',
  skillName: 'xlsx',
  filePath: `${PROJECT}/.agents/skills/xlsx-stub-99aa88bb/SKILL.md`,
  listedFile: 'xlsx-stub-99aa88bb/SKILL.md',
  projectDir: PROJECT,
};

// Lines shaped as codex-cli 0.169.0 prints them (docs/codex.md "What --json prints").
const line = (value: unknown): string => JSON.stringify(value);
const start = [line({ type: 'thread.started', thread_id: 't-1' }), line({ type: 'turn.started' })];
const command = (phase: 'started' | 'completed', id: string, cmd: string, exit = 0): string =>
  line({
    type: `item.${phase}`,
    item: {
      id,
      type: 'command_execution',
      command: cmd,
      aggregated_output: '',
      exit_code: phase === 'completed' ? exit : null,
      status: phase === 'completed' ? (exit === 0 ? 'completed' : 'failed') : 'in_progress',
    },
  });
const ran = (id: string, cmd: string, exit = 0): string[] => [
  command('started', id, cmd),
  command('completed', id, cmd, exit),
];
const message = (id: string, text: string): string =>
  line({ type: 'item.completed', item: { id, type: 'agent_message', text } });
const reasoning = (id: string): string =>
  line({ type: 'item.completed', item: { id, type: 'reasoning', text: 'thinking' } });
const completed = line({
  type: 'turn.completed',
  usage: { input_tokens: 120, cached_input_tokens: 20, output_tokens: 7, reasoning_output_tokens: 0 },
});
const failed = (text: string): string[] => [
  line({ type: 'error', message: text }),
  line({ type: 'turn.failed', error: { message: text } }),
];
const bash = (script: string): string => `/bin/bash -lc '${script}'`;

/** Feeds lines until the outcome is known; returns it and how many lines were read. */
function run(lines: string[], siblings: CodexSiblingIdentity[] = []) {
  const decider = new CodexDecider(STUB, siblings);
  let outcome: Outcome | undefined;
  let read = 0;
  for (const l of lines) {
    read += 1;
    outcome = decider.feed(parseCodexEvent(l));
    if (outcome) break;
  }
  return { outcome: outcome ?? decider.finish({ exitCode: 0 }), read, loaded: decider.loaded, decider };
}

describe('the Codex decision: the first decisive action of the first turn', () => {
  it('a read of the stub is triggered the moment the command starts', () => {
    const lines = [
      ...start,
      ...ran('item_0', bash(`cat ${STUB.filePath}`)),
      message('item_1', 'done'),
      completed,
    ];
    const result = run(lines);
    expect(result.outcome).toEqual({ kind: 'triggered' });
    expect(result.read).toBe(3);
    expect(result.loaded).toEqual({ kind: 'stub' });
  });

  it.each([
    ['relative sed -n', `/bin/bash -lc "sed -n '1,200p' .agents/skills/pdf-stub-1a2b3c4d/SKILL.md"`],
    ['head with a count', bash('head -n 50 .agents/skills/pdf-stub-1a2b3c4d/SKILL.md')],
    ['nl -ba', bash(`nl -ba ${STUB.filePath}`)],
    ['tail', bash(`tail -40 ${STUB.filePath}`)],
    ['the unexpanded alias (fails in the shell, still names the file)', bash(`cat r4/${STUB.listedFile}`)],
    ['a script under the aliased scripts/', bash('bash r1/pdf-stub-1a2b3c4d/scripts/run.sh')],
    ['a cd first', bash('cd .agents/skills/pdf-stub-1a2b3c4d && cat SKILL.md')],
    ['in a pipeline', bash(`cat ${STUB.filePath} | head -20`)],
    ['without a login shell', `/bin/sh -c 'cat ${STUB.filePath}'`],
    ['the realpath alias', bash(`cat ${STUB.aliases?.[0]}`)],
    ['a script under scripts/', bash('python3 .agents/skills/pdf-stub-1a2b3c4d/scripts/extract.py in.pdf')],
    ['a script run directly', bash(`${PROJECT}/.agents/skills/pdf-stub-1a2b3c4d/scripts/run.sh`)],
  ])('%s counts as a read of the stub', (_name, cmd) => {
    expect(run([...start, ...ran('item_0', cmd, 1), completed]).outcome).toEqual({ kind: 'triggered' });
  });

  it.each([
    ['grep names the file but is not a reader', bash(`grep -n name ${STUB.filePath}`)],
    ['another file of the skill folder', bash('cat .agents/skills/pdf-stub-1a2b3c4d/README.md')],
    ['python -c', bash('python3 -c "print(1)"')],
    ['a file only named like the stub', bash('cat notes/pdf-stub-1a2b3c4d/SKILL.md')],
    ['ls of the skill folder', bash('ls .agents/skills/pdf-stub-1a2b3c4d')],
    ['the listed file without its alias is relative to the project', bash('cat pdf-stub-1a2b3c4d/SKILL.md')],
  ])('%s is not a read of the stub', (_name, cmd) => {
    expect(run([...start, ...ran('item_0', cmd), completed]).outcome).toEqual({ kind: 'not-triggered' });
  });

  it('reasoning is not decisive: the read after it decides', () => {
    const lines = [...start, reasoning('item_0'), ...ran('item_1', bash(`cat ${STUB.filePath}`)), completed];
    expect(run(lines).outcome).toEqual({ kind: 'triggered' });
  });

  it('a message and the end of the turn is a miss, decided at turn.completed', () => {
    const result = run([...start, reasoning('item_0'), message('item_1', 'Here is an answer.'), completed]);
    expect(result.outcome).toEqual({ kind: 'not-triggered' });
    expect(result.read).toBe(5);
    expect(result.loaded).toEqual({ kind: 'none' });
  });

  it('a message followed by a read in the same turn was commentary: the read decides', () => {
    const lines = [
      ...start,
      message('item_0', 'Let me check the skill.'),
      ...ran('item_1', bash(`cat ${STUB.filePath}`)),
    ];
    expect(run(lines).outcome).toEqual({ kind: 'triggered' });
  });

  it('another command first is a miss once it completes, before any later response', () => {
    const lines = [
      ...start,
      ...ran('item_0', bash('ls')),
      ...ran('item_1', bash(`cat ${STUB.filePath}`)),
      completed,
    ];
    const result = run(lines);
    expect(result.outcome).toEqual({ kind: 'not-triggered' });
    expect(result.read).toBe(4);
  });

  it('a read started while the first command still runs came from the same response: triggered', () => {
    const lines = [
      ...start,
      command('started', 'item_0', bash('ls')),
      command('started', 'item_1', bash('head -n 50 .agents/skills/pdf-stub-1a2b3c4d/SKILL.md')),
      command('completed', 'item_0', bash('ls')),
    ];
    expect(run(lines).outcome).toEqual({ kind: 'triggered' });
  });

  it('another skill file is a miss that names what was loaded', () => {
    const other = '/tmp/codex-home/skills/.system/imagegen/SKILL.md';
    const result = run([...start, ...ran('item_0', bash(`cat ${other}`)), completed]);
    expect(result.outcome).toEqual({ kind: 'not-triggered' });
    expect(result.loaded).toEqual({ kind: 'other' });
  });

  it('a sibling stub is a miss that names the sibling', () => {
    const result = run([...start, ...ran('item_0', bash(`cat ${SIBLING.filePath}`)), completed], [SIBLING]);
    expect(result.outcome).toEqual({ kind: 'not-triggered' });
    expect(result.loaded).toEqual({ kind: 'sibling', name: 'xlsx' });
  });

  it('a file change first is a miss', () => {
    const change = line({ type: 'item.completed', item: { id: 'item_0', type: 'file_change', changes: [] } });
    expect(run([...start, change, completed]).outcome).toEqual({ kind: 'not-triggered' });
  });

  it('a plan update is not decisive', () => {
    const plan = line({ type: 'item.completed', item: { id: 'item_0', type: 'todo_list', items: [] } });
    const lines = [...start, plan, ...ran('item_1', bash(`cat ${STUB.filePath}`))];
    expect(run(lines).outcome).toEqual({ kind: 'triggered' });
  });

  it('reconnect notices are not failures when the turn goes on', () => {
    const notice = line({ type: 'error', message: 'Reconnecting... 1/5' });
    expect(run([...start, notice, ...ran('item_0', bash(`cat ${STUB.filePath}`))]).outcome).toEqual({
      kind: 'triggered',
    });
  });

  it('a turn that completes with nothing decisive is an error, not a miss', () => {
    expect(run([...start, reasoning('item_0'), completed]).outcome).toEqual({
      kind: 'error',
      cause: 'no-decision',
    });
  });

  it.each([
    [
      'unexpected status 401 Unauthorized: Incorrect API key provided, url: http://x/v1/responses',
      'auth',
      401,
    ],
    ['exceeded retry limit, last status: 429 Too Many Requests', 'rate-limit', 429],
    ['unexpected status 503 Service Unavailable: upstream down, url: http://x', 'api', 503],
    ['unexpected status 404 Not Found: not found, url: http://x', 'model', 404],
  ])('turn.failed "%s" is error:%s', (text, cause, status) => {
    expect(run([...start, ...failed(text)]).outcome).toEqual({ kind: 'error', cause, status });
  });

  it.each([
    ['stream disconnected before completion: Transport error: network error', 'network'],
    ['The requested model does not exist.', 'model'],
    ['We’re currently experiencing high demand, which may cause temporary errors.', 'api'],
  ])('turn.failed "%s" without a status is error:%s', (text, cause) => {
    expect(codexApiError(text)).toEqual({ kind: 'error', cause });
  });

  it('a process that ends undecided: crash on a signal, cli-missing when it never started', () => {
    const decider = new CodexDecider(STUB);
    for (const l of start) decider.feed(parseCodexEvent(l));
    expect(decider.finish({ signal: 'SIGKILL' })).toEqual({ kind: 'error', cause: 'crash' });
    expect(new CodexDecider(STUB).finish({ spawnFailed: true })).toEqual({
      kind: 'error',
      cause: 'cli-missing',
    });
  });

  it('usage comes from turn.completed, cached tokens apart', () => {
    const { decider } = run([...start, message('item_0', 'hi'), completed]);
    decider.feed(parseCodexEvent(completed));
    expect(decider.usage).toMatchObject({ inputTokens: 200, cacheReadInputTokens: 40, outputTokens: 14 });
  });

  it('unknown and broken lines never decide', () => {
    const unknown = line({ type: 'item.completed', item: { id: 'item_0', type: 'future_kind' } });
    expect(run([...start, 'not json', '[1]', unknown, completed]).outcome).toEqual({
      kind: 'error',
      cause: 'no-decision',
    });
    expect(run([...start, unknown, ...ran('item_1', bash(`cat ${STUB.filePath}`))]).outcome).toEqual({
      kind: 'triggered',
    });
  });
});

describe('shell words and skill use', () => {
  it('splits as a POSIX shell does', () => {
    expect(shellWords(`/bin/bash -lc "sed -n '1,200p' a\\"b"`)).toEqual([
      '/bin/bash',
      '-lc',
      `sed -n '1,200p' a"b`,
    ]);
    expect(shellWords('cat a&&head b|c;d')).toEqual(['cat', 'a', '&&', 'head', 'b', '|', 'c', ';', 'd']);
  });

  it('a variable assignment before the reader is skipped', () => {
    expect(skillUse(`LC_ALL=C cat ${STUB.filePath}`, PROJECT, STUB)).toBe('read');
  });
});
