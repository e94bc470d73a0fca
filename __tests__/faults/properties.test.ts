import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringify as yamlStringify } from 'yaml';
import { Decider, namesStub } from '../../src/agents/claude/decision.js';
import { parseEvent } from '../../src/agents/claude/events.js';
import type { StubIdentity } from '../../src/agents/runs.js';
import { compareReports } from '../../src/compare/compare.js';
import { SkilltriggerError } from '../../src/errors.js';
import { parseEvalSet } from '../../src/inputs/eval-set.js';
import { parseSkill } from '../../src/inputs/skill.js';
import { ERROR_CAUSES } from '../../src/outcome.js';
import { parseReport } from '../../src/report/read/read.js';
import { reportFixture } from '../fakes/report-fixture.js';

/**
 * Whatever a CLI upgrade, a cut pipe or a hand-edited file feeds them, the stream reader never
 * throws, and the loaders only ever throw the errors the CLI turns into "file, line, what, fix"
 * and exit 1. An exception of any other class would reach the user as "unexpected error".
 */

const STUB: StubIdentity = {
  name: 'handoff-stub-0123abcd',
  filePath: '/tmp/p/project/.claude/commands/handoff-stub-0123abcd.md',
  projectDir: '/tmp/p/project',
};

const RUNS = { numRuns: 400 };

// Values that look like what the CLI prints, with every field free to be the wrong shape.
const json = fc.jsonValue({ maxDepth: 3 });
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.oneof(arb, json);
const id = fc.constantFrom('m1', 'm2', 'm3', 'd27256b0');
const block = fc.oneof(
  fc.record({ type: fc.constant('text'), text: maybe(fc.string()) }),
  fc.record({ type: fc.constantFrom('thinking', 'redacted_thinking'), thinking: maybe(fc.string()) }),
  fc.record({
    type: fc.constantFrom('tool_use', 'server_tool_use'),
    name: maybe(fc.constantFrom('Skill', 'SlashCommand', 'Read', 'ToolSearch', 'Bash', '')),
    input: maybe(
      fc.record(
        {
          skill: maybe(fc.constantFrom(STUB.name, `/${STUB.name}`, `plug:${STUB.name}`, 'dataviz', '')),
          command: maybe(fc.constantFrom(`/${STUB.name} now`, '/other')),
          file_path: maybe(
            fc.constantFrom(STUB.filePath, '.claude/commands/handoff-stub-0123abcd.md', '/etc/x'),
          ),
        },
        { requiredKeys: [] },
      ),
    ),
  }),
  json,
);
const assistantEvent = fc.record(
  {
    type: fc.constant('assistant'),
    message: maybe(
      fc.record(
        {
          id: maybe(id),
          model: maybe(fc.constantFrom('claude-opus-5-5', '<synthetic>')),
          content: maybe(fc.array(block, { maxLength: 4 })),
          usage: maybe(fc.record({ input_tokens: maybe(fc.integer()), output_tokens: maybe(fc.double()) })),
          stop_reason: maybe(fc.constantFrom(null, 'tool_use', 'end_turn')),
        },
        { requiredKeys: [] },
      ),
    ),
    parent_tool_use_id: maybe(fc.constantFrom(null, 'toolu_1')),
    is_api_error_message: maybe(fc.boolean()),
    error: maybe(fc.constantFrom('authentication_failed', 'rate_limit', 'server_error', 'unknown')),
    api_error_status: maybe(fc.constantFrom(400, 401, 403, 404, 429, 500, 529)),
  },
  { requiredKeys: ['type'] },
);
const systemEvent = fc.record(
  {
    type: fc.constant('system'),
    subtype: maybe(fc.constantFrom('init', 'status', 'api_retry', 'permission_denied')),
    status: maybe(fc.constant('requesting')),
    slash_commands: maybe(fc.array(fc.constantFrom(STUB.name, 'dataviz', 'x'), { maxLength: 3 })),
    skills: maybe(fc.array(fc.string(), { maxLength: 3 })),
    mcp_servers: maybe(fc.array(json, { maxLength: 2 })),
    error_status: maybe(fc.constantFrom(null, 500, 429)),
    error: maybe(fc.string()),
  },
  { requiredKeys: ['type'] },
);
const otherEvent = fc.oneof(
  fc.record({ type: fc.constant('user'), message: json }),
  fc.record(
    {
      type: fc.constant('result'),
      is_error: maybe(fc.boolean()),
      subtype: maybe(fc.string()),
      api_error_status: maybe(fc.integer()),
      result: maybe(fc.string()),
      usage: json,
      total_cost_usd: maybe(fc.double()),
    },
    { requiredKeys: ['type'] },
  ),
  fc.record(
    {
      type: fc.constant('stream_event'),
      api_message_id: maybe(id),
      event: maybe(
        fc.record(
          {
            type: maybe(
              fc.constantFrom('message_start', 'message_delta', 'message_stop', 'content_block_start'),
            ),
            message: maybe(fc.record({ id: maybe(id) }, { requiredKeys: [] })),
          },
          { requiredKeys: [] },
        ),
      ),
    },
    { requiredKeys: ['type'] },
  ),
);
/** A stream-json line: mostly event-shaped JSON, sometimes any JSON, sometimes not JSON at all. */
const line = fc.oneof(
  { weight: 6, arbitrary: fc.oneof(assistantEvent, systemEvent, otherEvent).map((e) => JSON.stringify(e)) },
  { weight: 1, arbitrary: json.map((v) => JSON.stringify(v)) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary' }) },
);
const exit = fc.record(
  {
    spawnFailed: fc.boolean(),
    exitCode: fc.integer({ min: -1, max: 255 }),
    signal: fc.constantFrom('SIGKILL', 'SIGTERM', 'SIGSEGV'),
  },
  { requiredKeys: [] },
);

/** Whether any line holds an assistant tool call that loads the stub (what "triggered" needs). */
function someLineLoadsStub(lines: string[]): boolean {
  return lines.some((l) => {
    const e = parseEvent(l);
    if (e.type !== 'assistant' || e.synthetic || e.parentToolUseId !== null) return false;
    return e.blocks.some((b) => {
      if (b.kind !== 'tool_use') return false;
      if (b.name === 'Read') {
        const file = b.input.file_path;
        return (
          typeof file === 'string' && file !== '' && path.resolve(STUB.projectDir, file) === STUB.filePath
        );
      }
      const named = b.input.skill ?? b.input.command ?? b.input.name;
      return typeof named === 'string' && namesStub(named, STUB.name);
    });
  });
}

describe('the stream-json reader never throws', () => {
  it('parseEvent takes any line', () => {
    fc.assert(
      fc.property(fc.oneof(line, fc.string({ unit: 'grapheme' })), (l) => {
        expect(typeof parseEvent(l).type).toBe('string');
      }),
      { numRuns: 2000 },
    );
  });

  it('the Decider takes any sequence of lines and any exit, and its outcome is one of the four', () => {
    fc.assert(
      fc.property(fc.array(line, { maxLength: 30 }), exit, (lines, ended) => {
        const decider = new Decider(STUB);
        let decided: ReturnType<Decider['feed']>;
        for (const l of lines) {
          const outcome = decider.feed(parseEvent(l));
          // Once decided, the outcome never changes.
          if (decided) expect(outcome).toEqual(decided);
          decided = outcome;
        }
        const outcome = decider.finish(ended);
        if (decided) expect(outcome).toEqual(decided);
        expect(['triggered', 'not-triggered', 'timeout', 'error']).toContain(outcome.kind);
        if (outcome.kind === 'error') expect(ERROR_CAUSES).toContain(outcome.cause);
        // A trigger needs a real (non-synthetic, top-level) call that loads the stub.
        if (outcome.kind === 'triggered') expect(someLineLoadsStub(lines)).toBe(true);
        expect(decider.usage.inputTokens).toBeGreaterThanOrEqual(0);
      }),
      RUNS,
    );
  });
});

/** Runs `load` and fails unless it returns or throws a SkilltriggerError (the exit-1 family). */
function onlyClassified(load: () => unknown): void {
  try {
    load();
  } catch (error) {
    if (!(error instanceof SkilltriggerError)) {
      throw new Error(
        `unclassified ${error instanceof Error ? error.constructor.name : typeof error}: ${String(error)}`,
      );
    }
    expect(error.exitCode).toBe(1);
  }
}

const anyText = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme' }));
const yamlText = json.map((v) => yamlStringify(v));
/** YAML with anchors and aliases, the shape of an alias bomb, at random sizes. */
const aliasYaml = fc.integer({ min: 1, max: 12 }).chain((depth) =>
  fc.integer({ min: 1, max: 12 }).map((width) => {
    const rows = ['a0: &a0 [x]'];
    for (let i = 1; i <= depth; i++)
      rows.push(
        `a${i}: &a${i} [${Array(width)
          .fill(`*a${i - 1}`)
          .join(', ')}]`,
      );
    return rows.join('\n');
  }),
);
const evalFile = fc.constantFrom('evals.json', 'evals.yaml', 'EVAL.yml', 'evals.csv', 'evals.txt', 'evals');

describe('the loaders only throw classified input errors', () => {
  it('parseEvalSet, on any text under any name', () => {
    const csv = fc
      .array(
        fc.array(fc.oneof(fc.string(), fc.constantFrom('true', 'false', '"', ',', '\n')), { maxLength: 4 }),
        {
          maxLength: 5,
        },
      )
      .map((rows) => ['query,should_trigger,id', ...rows.map((r) => r.join(','))].join('\n'));
    const agentv = fc
      .array(
        fc.record(
          {
            id: maybe(fc.string()),
            input: maybe(fc.string()),
            assertions: maybe(
              fc.array(
                fc.record(
                  {
                    type: maybe(fc.constantFrom('skill-trigger', 'skill-used', 'not-skill-used')),
                    skill: maybe(fc.constantFrom('handoff', 'other')),
                    value: maybe(fc.constantFrom('handoff', 'other')),
                    should_trigger: json,
                  },
                  { requiredKeys: [] },
                ),
                { maxLength: 3 },
              ),
            ),
          },
          { requiredKeys: [] },
        ),
        { maxLength: 5 },
      )
      .map((tests) => yamlStringify({ tests }));
    const text = fc.oneof(
      anyText,
      json.map((v) => JSON.stringify(v)),
      yamlText,
      csv,
      agentv,
      aliasYaml,
    );
    fc.assert(
      fc.property(text, evalFile, (t, file) => onlyClassified(() => parseEvalSet(t, file, 'handoff'))),
      { numRuns: 1500 },
    );
  });

  it('parseSkill, on any frontmatter', () => {
    const frontmatter = fc.oneof(
      anyText,
      yamlText,
      aliasYaml,
      fc
        .record(
          { name: json, description: json, when_to_use: json, 'disable-model-invocation': json },
          { requiredKeys: [] },
        )
        .map((v) => yamlStringify(v)),
    );
    const text = fc.oneof(
      anyText,
      frontmatter.map((f) => `---\n${f}\n---\n\nBody.\n`),
      aliasYaml.map((f) => `---\n${f}\ndescription: x\n---\n`),
    );
    fc.assert(
      fc.property(text, (t) =>
        onlyClassified(() => parseSkill(t, { dir: '/skills/handoff', file: '/skills/handoff/SKILL.md' })),
      ),
      { numRuns: 1500 },
    );
  });

  it('parseReport, on any text and on any one field of a real report replaced; compare takes what it accepts', () => {
    const report = reportFixture();
    const isNode = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
    /** Replaces the value at a random path (chosen by `steps`) with `value`. */
    const mutate = (steps: number[], value: unknown): unknown => {
      const copy: unknown = structuredClone(report);
      let node: unknown = copy;
      for (const [i, step] of steps.entries()) {
        if (!isNode(node)) break;
        const keys = Object.keys(node);
        if (keys.length === 0) break;
        const key = keys[step % keys.length] ?? '';
        const child = node[key];
        if (i === steps.length - 1 || !isNode(child)) {
          node[key] = value;
          break;
        }
        node = child;
      }
      return copy;
    };
    /** A count edited by hand: still a whole number, so only the numbers' meaning can be wrong. */
    const countEdit = fc
      .tuple(fc.nat(), fc.constantFrom('hits', 'runs', 'timeouts', 'errors', 'planned'), fc.nat({ max: 40 }))
      .map(([i, field, value]) => {
        const copy = structuredClone(report);
        const query = copy.candidate.queries[i % copy.candidate.queries.length];
        if (query) query[field] = value;
        return JSON.stringify(copy);
      });
    const text = fc.oneof(
      anyText,
      json.map((v) => JSON.stringify(v)),
      fc
        .tuple(fc.array(fc.nat(), { minLength: 1, maxLength: 6 }), json)
        .map(([steps, value]) => JSON.stringify(mutate(steps, value))),
      countEdit,
    );
    fc.assert(
      fc.property(text, (t) =>
        onlyClassified(() => {
          // A report the reader accepts must not crash the comparison either (the statistics
          // throw a RangeError on counts they cannot have come from).
          const read = parseReport(t, 'report.json');
          compareReports(report, read);
          compareReports(read, report);
        }),
      ),
      { numRuns: 1500 },
    );
  });
});
