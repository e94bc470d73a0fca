/**
 * The Codex decision on session rollouts. The files under fixtures/codex-rollouts were recorded from
 * codex-cli 0.169.0 against the simulated model (the shapes decision.e2e.test.ts drives), with the
 * run's folder replaced by /tmp/skilltrigger-REC, the stub's name by pdf-stub-0a1b2c3d, and long
 * instruction texts and outputs cut (docs/codex.md "The session rollout"). Lines built here follow
 * their shapes.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { shellWords, skillUse } from '../../../src/agents/codex/command.js';
import {
  CodexDecider,
  type CodexSiblingIdentity,
  type CodexStubIdentity,
  codexApiError,
} from '../../../src/agents/codex/decision.js';
import { parseCodexEvent } from '../../../src/agents/codex/events.js';
import { parseRolloutLine } from '../../../src/agents/codex/rollout.js';
import type { Outcome } from '../../../src/outcome.js';

const PROJECT = '/tmp/skilltrigger-REC/project';
const STUB: CodexStubIdentity = {
  name: 'pdf-stub-0a1b2c3d',
  filePath: `${PROJECT}/.agents/skills/pdf-stub-0a1b2c3d/SKILL.md`,
  aliases: ['/private/tmp/skilltrigger-REC/project/.agents/skills/pdf-stub-0a1b2c3d/SKILL.md'],
  listedFile: 'pdf-stub-0a1b2c3d/SKILL.md',
  projectDir: PROJECT,
};
const SIBLING: CodexSiblingIdentity = {
  name: 'xlsx-stub-99aa88bb',
  skillName: 'xlsx',
  filePath: `${PROJECT}/.agents/skills/xlsx-stub-99aa88bb/SKILL.md`,
  listedFile: 'xlsx-stub-99aa88bb/SKILL.md',
  projectDir: PROJECT,
};

function recorded(name: string): string[] {
  const file = new URL(`../../fixtures/codex-rollouts/${name}.jsonl`, import.meta.url);
  return readFileSync(file, 'utf8').trimEnd().split('\n');
}

/** Feeds lines until the outcome is known; `at` is the `ordinal` (or index) of the deciding line. */
function run(lines: string[], siblings: CodexSiblingIdentity[] = []) {
  const decider = new CodexDecider(STUB, siblings);
  let outcome: Outcome | undefined;
  let at: unknown;
  for (const [index, l] of lines.entries()) {
    outcome = decider.feed(parseRolloutLine(l));
    if (outcome) {
      at = (JSON.parse(l) as { ordinal?: number }).ordinal ?? index;
      break;
    }
  }
  return { outcome: outcome ?? decider.finish({ exitCode: 0 }), at, loaded: decider.loaded, decider };
}

/** The ordinal of the first line of `lines` that holds every fragment. */
function ordinalOf(lines: string[], ...fragments: string[]): number | undefined {
  const hit = lines.find((l) => fragments.every((f) => l.includes(f)));
  return hit === undefined ? undefined : (JSON.parse(hit) as { ordinal: number }).ordinal;
}

const READ = `"command":["/bin/bash","-lc","cat ${STUB.filePath}"]`;

describe('the Codex decision on recorded rollouts (codex-cli 0.169.0)', () => {
  it.each([
    ['exec-cell-list-then-read', 'one exec cell: ls, then the read'],
    ['exec-cell-parallel', 'one exec cell running ls and the read at once (Promise.all)'],
    ['two-function-calls-paused', 'two exec_command calls, ls run before the read was streamed'],
    ['two-exec-cells-paused', 'two exec cells, ls run before the second cell was streamed'],
    ['empty-cell-then-read', 'a cell that runs nothing, then the read in the next response'],
  ])('%s (%s) is triggered at the read', (name) => {
    const lines = recorded(name);
    const result = run(lines);
    expect(result.outcome).toEqual({ kind: 'triggered' });
    expect(result.loaded).toEqual({ kind: 'stub' });
    expect(result.at).toBe(ordinalOf(lines, '"item_completed"', READ));
  });

  it('commentary, then a sed of the stub in the same response, is triggered at the read', () => {
    const lines = recorded('commentary-then-read');
    const result = run(lines);
    expect(result.outcome).toEqual({ kind: 'triggered' });
    expect(result.at).toBe(ordinalOf(lines, '"item_completed"', `sed -n '1,200p' ${STUB.filePath}`));
  });

  it('a read in the second response is a miss, decided when the first response has returned', () => {
    const lines = recorded('read-in-second-response');
    const result = run(lines);
    expect(result.outcome).toEqual({ kind: 'not-triggered' });
    expect(result.loaded).toEqual({ kind: 'none' });
    // The first response's output, before the second response's call is recorded.
    const firstOutput = ordinalOf(lines, '"custom_tool_call_output"');
    expect(result.at).toBe(firstOutput);
    expect(firstOutput).toBeLessThan(ordinalOf(lines, '"custom_tool_call"', 'SKILL.md') ?? 0);
  });

  it("another skill's SKILL.md is a miss that says another skill was loaded", () => {
    const result = run(recorded('other-skill'));
    expect(result.outcome).toEqual({ kind: 'not-triggered' });
    expect(result.loaded).toEqual({ kind: 'other' });
  });

  it('a text answer is a miss at the end of the turn, with the usage Codex recorded', () => {
    const lines = recorded('text-answer');
    const result = run(lines);
    expect(result.outcome).toEqual({ kind: 'not-triggered' });
    expect(result.at).toBe(ordinalOf(lines, '"task_complete"'));
    expect(result.decider.usage.outputTokens).toBeGreaterThan(0);
  });

  it('a failed turn is an error with its cause, never a miss', () => {
    expect(run(recorded('failed-401')).outcome).toEqual({ kind: 'error', cause: 'auth', status: 401 });
  });

  it('the session id is the thread id', () => {
    expect(run(recorded('text-answer')).decider.threadId).toMatch(/^[0-9a-f-]{36}$/);
  });
});

// Lines in the recorded shapes, for the cases no recording covers.
const line = (type: string, payload: Record<string, unknown>): string => JSON.stringify({ type, payload });
const call = (id: string): string =>
  line('response_item', { type: 'custom_tool_call', call_id: id, name: 'exec' });
const output = (id: string): string =>
  line('response_item', { type: 'custom_tool_call_output', call_id: id });
const ran = (script: string, exit = 0): string =>
  line('event_msg', {
    type: 'item_completed',
    item: {
      type: 'CommandExecution',
      command: ['/bin/bash', '-lc', script],
      cwd: `file://${PROJECT}`,
      exit_code: exit,
      status: exit === 0 ? 'completed' : 'failed',
    },
  });
const message = (phase: string): string =>
  line('response_item', { type: 'message', role: 'assistant', phase, content: [] });
const reasoning = line('response_item', { type: 'reasoning', summary: [] });
const turnEnd = line('event_msg', { type: 'task_complete', error: null });
/** One response of one call running `scripts` in turn. */
const response = (id: string, ...scripts: string[]): string[] => [
  call(id),
  ...scripts.map((s) => ran(s)),
  output(id),
];

describe('the first response decides', () => {
  it.each([
    ['relative sed -n', `sed -n '1,200p' .agents/skills/pdf-stub-0a1b2c3d/SKILL.md`],
    ['head with a count', 'head -n 50 .agents/skills/pdf-stub-0a1b2c3d/SKILL.md'],
    ['nl -ba', `nl -ba ${STUB.filePath}`],
    ['tail', `tail -40 ${STUB.filePath}`],
    ['the unexpanded alias (fails in the shell, still names the file)', `cat r4/${STUB.listedFile}`],
    ['a script under the aliased scripts/', 'bash r1/pdf-stub-0a1b2c3d/scripts/run.sh'],
    ['a cd first', 'cd .agents/skills/pdf-stub-0a1b2c3d && cat SKILL.md'],
    ['in a pipeline', `cat ${STUB.filePath} | head -20`],
    ['the realpath alias', `cat ${STUB.aliases?.[0]}`],
    ['a script under scripts/', 'python3 .agents/skills/pdf-stub-0a1b2c3d/scripts/extract.py in.pdf'],
    ['a script run directly', `${PROJECT}/.agents/skills/pdf-stub-0a1b2c3d/scripts/run.sh`],
  ])('%s counts as a read of the stub', (_name, script) => {
    expect(run([call('c1'), ran(script, 1), output('c1'), turnEnd]).outcome).toEqual({ kind: 'triggered' });
  });

  it.each([
    ['grep names the file but is not a reader', `grep -n name ${STUB.filePath}`],
    ['another file of the skill folder', 'cat .agents/skills/pdf-stub-0a1b2c3d/README.md'],
    ['python -c', 'python3 -c "print(1)"'],
    ['a file only named like the stub', 'cat notes/pdf-stub-0a1b2c3d/SKILL.md'],
    ['ls of the skill folder', 'ls .agents/skills/pdf-stub-0a1b2c3d'],
    ['the listed file without its alias is relative to the project', 'cat pdf-stub-0a1b2c3d/SKILL.md'],
  ])('%s is not a read of the stub', (_name, script) => {
    expect(run([...response('c1', script), turnEnd]).outcome).toEqual({ kind: 'not-triggered' });
  });

  it("a command's working folder comes from the rollout: a relative read from elsewhere is not the stub", () => {
    const elsewhere = line('event_msg', {
      type: 'item_completed',
      item: {
        type: 'CommandExecution',
        command: ['/bin/bash', '-lc', 'cat .agents/skills/pdf-stub-0a1b2c3d/SKILL.md'],
        cwd: 'file:///somewhere/else',
      },
    });
    expect(run([call('c1'), elsewhere, output('c1'), turnEnd]).outcome).toEqual({ kind: 'not-triggered' });
  });

  it('the read as the last command of a response whose first call has already returned: triggered', () => {
    // Two calls: the first one's output can only come once the whole response has streamed.
    const lines = [
      call('c1'),
      ran('ls'),
      call('c2'),
      output('c1'),
      ran(`cat ${STUB.filePath}`),
      output('c2'),
    ];
    expect(run(lines).outcome).toEqual({ kind: 'triggered' });
  });

  it('the response is a miss only once every call has returned', () => {
    const lines = [
      call('c1'),
      call('c2'),
      ran('ls'),
      output('c1'),
      ran('pwd'),
      output('c2'),
      ...response('c3'),
    ];
    const result = run(lines);
    expect(result.outcome).toEqual({ kind: 'not-triggered' });
    expect(result.at).toBe(5);
  });

  it('reasoning and commentary belong to the response of the calls after them', () => {
    const lines = [reasoning, message('commentary'), ...response('c1', `cat ${STUB.filePath}`)];
    expect(run(lines).outcome).toEqual({ kind: 'triggered' });
  });

  it('a sibling stub is a miss that names the sibling, even after another skill file', () => {
    const other = '/tmp/skilltrigger-REC/codex-home/skills/.system/imagegen/SKILL.md';
    const lines = response('c1', `cat ${other}`, `cat ${SIBLING.filePath}`);
    const result = run(lines, [SIBLING]);
    expect(result.outcome).toEqual({ kind: 'not-triggered' });
    expect(result.loaded).toEqual({ kind: 'sibling', name: 'xlsx' });
  });

  it('a file change in the first response is a miss; what a later response does is not seen', () => {
    const change = line('event_msg', { type: 'item_completed', item: { type: 'FileChange', changes: {} } });
    const lines = [call('c1'), change, output('c1'), ...response('c2', `cat ${STUB.filePath}`)];
    expect(run(lines).outcome).toEqual({ kind: 'not-triggered' });
  });

  it('a response whose calls ran nothing is not decisive: the next one decides', () => {
    const plan = line('response_item', { type: 'function_call', call_id: 'p1', name: 'update_plan' });
    const lines = [plan, output('p1').replace('custom_tool_call_output', 'function_call_output')];
    expect(run([...lines, ...response('c2', `cat ${STUB.filePath}`)]).outcome).toEqual({ kind: 'triggered' });
    expect(run([...lines, ...response('c2', 'ls'), turnEnd]).outcome).toEqual({ kind: 'not-triggered' });
  });

  it('an output for a call this response did not make does not close it', () => {
    const lines = [call('c1'), ran('ls'), output('other'), ran(`cat ${STUB.filePath}`), output('c1')];
    expect(run(lines).outcome).toEqual({ kind: 'triggered' });
  });
});

describe('the end of the turn', () => {
  it('a turn that ends with nothing decisive is an error, not a miss', () => {
    expect(run([reasoning, turnEnd]).outcome).toEqual({ kind: 'error', cause: 'no-decision' });
  });

  it('unknown and broken lines never decide', () => {
    const unknown = line('event_msg', { type: 'item_completed', item: { type: 'FutureKind' } });
    const lines = ['not json', '[1]', line('future_line', {}), unknown, turnEnd];
    expect(run(lines).outcome).toEqual({ kind: 'error', cause: 'no-decision' });
    expect(run([unknown, ...response('c1', `cat ${STUB.filePath}`)]).outcome).toEqual({ kind: 'triggered' });
  });

  it('a failed turn without a message takes the last stdout error', () => {
    const decider = new CodexDecider(STUB);
    decider.noteStdout(
      parseCodexEvent(JSON.stringify({ type: 'error', message: 'unexpected status 503 x' })),
    );
    const failed = line('event_msg', { type: 'task_complete', error: { codex_error_info: 'x' } });
    expect(decider.feed(parseRolloutLine(failed))).toEqual({ kind: 'error', cause: 'api', status: 503 });
  });

  it('a run whose rollout never ended: stdout says why, else crash or no-decision', () => {
    const failed = new CodexDecider(STUB);
    failed.noteStdout(
      parseCodexEvent(JSON.stringify({ type: 'turn.failed', error: { message: 'stream disconnected' } })),
    );
    expect(failed.finish({ exitCode: 1 })).toEqual({ kind: 'error', cause: 'network' });
    expect(new CodexDecider(STUB).finish({ signal: 'SIGKILL' })).toEqual({ kind: 'error', cause: 'crash' });
    expect(new CodexDecider(STUB).finish({ exitCode: 0 })).toEqual({ kind: 'error', cause: 'no-decision' });
    expect(new CodexDecider(STUB).finish({ spawnFailed: true })).toEqual({
      kind: 'error',
      cause: 'cli-missing',
    });
  });

  it("usage: the rollout's totals; stdout's turn.completed only when the rollout has none", () => {
    const decider = new CodexDecider(STUB);
    const completed = {
      type: 'turn.completed',
      usage: { input_tokens: 120, cached_input_tokens: 20, output_tokens: 7 },
    };
    decider.noteStdout(parseCodexEvent(JSON.stringify(completed)));
    expect(decider.usage).toMatchObject({ inputTokens: 100, cacheReadInputTokens: 20, outputTokens: 7 });
    const total = {
      input_tokens: 300,
      cached_input_tokens: 100,
      output_tokens: 9,
      cache_write_input_tokens: 4,
    };
    decider.feed(
      parseRolloutLine(line('event_msg', { type: 'token_count', info: { total_token_usage: total } })),
    );
    expect(decider.usage).toEqual({
      inputTokens: 200,
      cacheReadInputTokens: 100,
      outputTokens: 9,
      cacheCreationInputTokens: 4,
    });
  });
});

describe('failure messages', () => {
  it.each([
    [
      'unexpected status 401 Unauthorized: Incorrect API key provided, url: http://x/v1/responses',
      'auth',
      401,
    ],
    ['exceeded retry limit, last status: 429 Too Many Requests', 'rate-limit', 429],
    ['unexpected status 503 Service Unavailable: upstream down, url: http://x', 'api', 503],
    ['unexpected status 404 Not Found: not found, url: http://x', 'model', 404],
  ])('"%s" is error:%s', (text, cause, status) => {
    expect(codexApiError(text)).toEqual({ kind: 'error', cause, status });
  });

  it.each([
    ['stream disconnected before completion: Transport error: network error', 'network'],
    ['The requested model does not exist.', 'model'],
    ['We’re currently experiencing high demand, which may cause temporary errors.', 'api'],
  ])('"%s" without a status is error:%s', (text, cause) => {
    expect(codexApiError(text)).toEqual({ kind: 'error', cause });
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
