/**
 * What the simulated model answers, as data: a script's first-turn `Behaviour` or a run's
 * follow-up turn becomes a `Plan` (the blocks of an answer, an API error, a hang, a cut stream…)
 * that respond.ts writes in the wire shapes. No I/O here.
 */
import { GATE_QUERY, type RequestView } from './request.js';
import type { Behaviour, CellShape, ErrorStatus, ToolCall } from './script.js';
import { type AnswerBlock, newId, newSignature } from './sse.js';

/** What the next turn of a run does. */
export type NextStep =
  | { kind: 'done' }
  | { kind: 'skill'; name: string }
  /** More Bash turns (`remaining`), then Skill naming `name`. */
  | { kind: 'look-then-skill'; remaining: number; name: string }
  | { kind: 'work'; remaining: number; step: number; delayMs: number }
  | { kind: 'calls'; calls: ToolCall[] };

/** Keyed by the tool_use ids the previous turn emitted: the CLI answers them in the next request. */
export interface Continuation {
  origin: Behaviour;
  turn: number;
  next: NextStep;
}

export type Plan =
  | {
      kind: 'answer';
      blocks: AnswerBlock[];
      delayMs: number;
      next?: Continuation;
      /** The Responses side only: the calls in one code cell, and a pause between output items. */
      cell?: CellShape;
      gapMs?: number;
    }
  | { kind: 'error'; status: ErrorStatus; message: string; noRetry: boolean }
  | { kind: 'hang' }
  | { kind: 'stall' }
  | { kind: 'cut'; block: AnswerBlock; before?: AnswerBlock }
  | { kind: 'reset' };

export const ERROR_TYPES: Record<ErrorStatus, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

function defaultErrorMessage(status: ErrorStatus, model: string): string {
  switch (status) {
    case 400:
    case 404:
      // The real API names the model this way when it does not know it.
      return `model: ${model}`;
    case 401:
      return 'invalid x-api-key';
    case 403:
      return 'Your API key does not have permission to use the specified resource.';
    case 429:
      return 'Number of request tokens has exceeded your per-minute rate limit (https://docs.claude.com/en/api/rate-limits); see the response headers for current usage. Please reduce the prompt length or the maximum tokens requested, or try again later.';
    case 500:
      return 'Internal server error';
    case 529:
      return 'Overloaded';
  }
}

const DEFAULT_TEXT = 'Here is a plain answer.';
const DEFAULT_WORK_DELAY_MS = 300;

function defaultText(view: RequestView): string {
  return view.query === GATE_QUERY ? 'pong' : DEFAULT_TEXT;
}

function text(value: string): AnswerBlock {
  return { type: 'text', text: value };
}

function tool(name: string, input: Record<string, unknown>): AnswerBlock & { type: 'tool_use' } {
  return { type: 'tool_use', id: newId('toolu_sim_'), name, input };
}

function bash(command: string, description: string): AnswerBlock & { type: 'tool_use' } {
  return tool('Bash', { command, description });
}

/** Every tool call of a message gets the same continuation: whichever result comes back leads on. */
function answer(
  blocks: AnswerBlock[],
  origin: Behaviour,
  turn: number,
  next: NextStep,
  delayMs = 0,
): Plan & { kind: 'answer' } {
  const hasTool = blocks.some((b) => b.type === 'tool_use');
  return { kind: 'answer', blocks, delayMs, ...(hasTool ? { next: { origin, turn: turn + 1, next } } : {}) };
}

function stubPath(view: RequestView, stub: string, layout: 'command' | 'skill'): string {
  const relative = layout === 'skill' ? `.claude/skills/${stub}/SKILL.md` : `.claude/commands/${stub}.md`;
  return view.cwd === undefined ? relative : `${view.cwd.replace(/\/+$/, '')}/${relative}`;
}

/** The behaviours answered with a message that calls a tool on the stub (or text when none is listed). */
type StubBehaviour = Extract<
  Behaviour,
  {
    kind:
      | 'skill'
      | 'read-stub'
      | 'toolsearch-then-skill'
      | 'bash-and-skill'
      | 'text-then-skill'
      | 'late-skill'
      | 'skill-then-work';
  }
>;
/** The behaviours answered on the wire without a message: an error, a hang, a stall, a reset, a cut. */
type WireBehaviour = Extract<Behaviour, { kind: 'api-error' | 'hang' | 'stall' | 'reset' | 'cut' }>;

export function planFirstTurn(behaviour: Behaviour, view: RequestView, layout: 'command' | 'skill'): Plan {
  switch (behaviour.kind) {
    case 'skill':
    case 'read-stub':
    case 'toolsearch-then-skill':
    case 'bash-and-skill':
    case 'text-then-skill':
    case 'late-skill':
    case 'skill-then-work':
      return planStubCall(behaviour, view, layout);
    case 'api-error':
    case 'hang':
    case 'stall':
    case 'reset':
    case 'cut':
      return planWire(behaviour, view);
    case 'thinking-then-text':
      return answer([thinking(), text(defaultText(view))], behaviour, 1, { kind: 'done' });
    case 'text':
      return answer([text(behaviour.text ?? defaultText(view))], behaviour, 1, { kind: 'done' });
    case 'other-tool':
      return answer([bash('ls', 'List files')], behaviour, 1, { kind: 'done' });
    case 'other-skill': {
      const name = behaviour.name ?? view.listing.find((entry) => entry.name !== view.stub?.name)?.name;
      if (name === undefined) return answer([text(DEFAULT_TEXT)], behaviour, 1, { kind: 'done' });
      return answer([tool('Skill', { skill: name })], behaviour, 1, { kind: 'done' });
    }
    case 'tool-calls':
      return {
        ...answer(
          behaviour.calls.map((call) => tool(call.name, call.input)),
          behaviour,
          1,
          behaviour.afterwards === undefined
            ? { kind: 'done' }
            : { kind: 'calls', calls: behaviour.afterwards },
        ),
        ...(behaviour.cell === undefined ? {} : { cell: behaviour.cell }),
        ...(behaviour.gapMs === undefined ? {} : { gapMs: behaviour.gapMs }),
      };
  }
}

function thinking(): AnswerBlock {
  return {
    type: 'thinking',
    thinking: 'The user asks a question; a direct answer fits.',
    signature: newSignature(),
  };
}

/** A first turn that calls a tool on the stub, or answers text when no stub is listed. */
function planStubCall(behaviour: StubBehaviour, view: RequestView, layout: 'command' | 'skill'): Plan {
  const stub = view.stub?.name;
  const reply = (blocks: AnswerBlock[], next: NextStep = { kind: 'done' }): Plan =>
    answer(blocks, behaviour, 1, next);
  // Without a stub in the listing a real model has nothing to call; answer text, like a miss.
  const noStub = (): Plan => reply([text('No listed skill fits this request.')]);
  if (behaviour.kind === 'skill') {
    const name = behaviour.name ?? stub;
    if (name === undefined) return noStub();
    return reply([tool('Skill', { skill: behaviour.leadingSlash === true ? `/${name}` : name })]);
  }
  if (stub === undefined) return noStub();
  switch (behaviour.kind) {
    case 'read-stub':
      return reply([text('Let me look.'), tool('Read', { file_path: stubPath(view, stub, layout) })]);
    case 'toolsearch-then-skill':
      return reply([tool('ToolSearch', { query: 'select:WebFetch', max_results: 5 })], {
        kind: 'skill',
        name: stub,
      });
    case 'bash-and-skill':
      return reply([bash('echo hi', 'Print hi'), tool('Skill', { skill: stub })]);
    case 'text-then-skill':
      return reply([text('I will use the matching skill for this.'), tool('Skill', { skill: stub })]);
    case 'late-skill': {
      const after = Math.max(1, behaviour.after ?? 1);
      return reply([bash('ls', 'List files')], { kind: 'look-then-skill', remaining: after - 1, name: stub });
    }
    case 'skill-then-work': {
      const delayMs = behaviour.delayMs ?? DEFAULT_WORK_DELAY_MS;
      const next: NextStep =
        behaviour.turns > 0
          ? { kind: 'work', remaining: behaviour.turns, step: 1, delayMs }
          : { kind: 'done' };
      return reply([tool('Skill', { skill: stub })], next);
    }
  }
}

/** A first turn answered on the wire: an error body, a hang, a stall, a reset, or a cut stream. */
function planWire(behaviour: WireBehaviour, view: RequestView): Plan {
  switch (behaviour.kind) {
    case 'api-error':
      return {
        kind: 'error',
        status: behaviour.status,
        message: behaviour.message ?? defaultErrorMessage(behaviour.status, view.model),
        noRetry: behaviour.noRetry === true,
      };
    case 'hang':
    case 'stall':
    case 'reset':
      return { kind: behaviour.kind };
    case 'cut':
      return {
        kind: 'cut',
        block: tool('Skill', { skill: view.stub?.name ?? 'skill' }),
        ...(behaviour.afterText === undefined ? {} : { before: text(behaviour.afterText) }),
      };
  }
}

/** `NAME=value` as a line of any tool result the CLI sent back (an `env` listing, a file). */
function valueIn(texts: string[], name: string): string | undefined {
  const pattern = new RegExp(`(?:^|\\n)${name.replace(/[^A-Za-z0-9_]/g, '')}=([^\\n]*)`);
  for (const text of texts) {
    const match = pattern.exec(text);
    if (match?.[1] !== undefined) return match[1];
  }
  return undefined;
}

/** Replaces `{{NAME}}` in every string of a tool input with what the tool results revealed. */
function fillPlaceholders(value: unknown, texts: string[]): unknown {
  if (typeof value === 'string') {
    return value.replace(/\{\{([A-Za-z0-9_]+)\}\}/g, (whole, name: string) => valueIn(texts, name) ?? whole);
  }
  if (Array.isArray(value)) return value.map((v) => fillPlaceholders(v, texts));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fillPlaceholders(v, texts)]));
  }
  return value;
}

export function planFollowUp({ origin, turn, next }: Continuation, view: RequestView): Plan {
  switch (next.kind) {
    case 'done':
      return answer([text('Done.')], origin, turn, next);
    case 'skill':
      return answer([tool('Skill', { skill: next.name })], origin, turn, { kind: 'done' });
    case 'look-then-skill':
      if (next.remaining <= 0)
        return answer([tool('Skill', { skill: next.name })], origin, turn, { kind: 'done' });
      return answer([bash('ls -a', 'List all files')], origin, turn, {
        ...next,
        remaining: next.remaining - 1,
      });
    case 'work': {
      const after: NextStep =
        next.remaining > 1
          ? { ...next, remaining: next.remaining - 1, step: next.step + 1 }
          : { kind: 'done' };
      return answer(
        [bash(`echo step ${next.step}`, `Work step ${next.step}`)],
        origin,
        turn,
        after,
        next.delayMs,
      );
    }
    case 'calls': {
      const blocks = next.calls.map((call) =>
        tool(
          call.name,
          Object.fromEntries(
            Object.entries(call.input).map(([key, value]) => [
              key,
              fillPlaceholders(value, view.toolResultTexts ?? []),
            ]),
          ),
        ),
      );
      return answer(blocks, origin, turn, { kind: 'done' });
    }
  }
}
