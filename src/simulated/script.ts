/**
 * What a scenario script of the simulated model (model.ts) says: how the "model" answers the
 * first turn of a run. Types only, imported by the server and by the scripts alike.
 */
import type { RequestView } from './request.js';

export type ErrorStatus = 400 | 401 | 403 | 404 | 429 | 500 | 529;

/** One tool call of a scripted message. */
export interface ToolCall {
  name: string;
  input: Record<string, unknown>;
}

/** How the simulated model answers the first turn of a run. */
export type Behaviour =
  /** One Skill tool_use naming the stub (or `name`); the input arrives as small input_json_delta chunks. */
  | { kind: 'skill'; name?: string; leadingSlash?: boolean }
  /** Text "Let me look." then a Read of the stub file's absolute path. */
  | { kind: 'read-stub' }
  /** Turn 1: ToolSearch only (not decisive); turn 2: Skill naming the stub. */
  | { kind: 'toolsearch-then-skill' }
  /** One message: Bash `echo hi`, then Skill naming the stub. */
  | { kind: 'bash-and-skill' }
  /** One message: a text block, then Skill naming the stub. */
  | { kind: 'text-then-skill' }
  /** A signed thinking block, then text; no tool. */
  | { kind: 'thinking-then-text' }
  /** Plain text; without `text`, `pong` for the gate query and a generic answer otherwise. */
  | { kind: 'text'; text?: string }
  /** A different tool (Bash `ls`) and no Skill in that message. */
  | { kind: 'other-tool' }
  /**
   * The late load: `after` turns (default 1) of Bash `ls` first, then Skill naming the stub in the
   * next turn. The first message decides a miss; `--late N` with N ≥ `after` sees the load.
   */
  | { kind: 'late-skill'; after?: number }
  /** Skill naming another listed skill (default: the first listing entry that is not the stub). */
  | { kind: 'other-skill'; name?: string }
  /** Skill naming the stub, then `turns` more turns of Bash calls, each after `delayMs` (default 300). */
  | { kind: 'skill-then-work'; turns: number; delayMs?: number }
  /**
   * A real-shaped error body; `noRetry` adds `x-should-retry: false`. `echoApiKey` appends the
   * `x-api-key` the request carried to the message, as a gateway or proxy that echoes it does.
   */
  | { kind: 'api-error'; status: ErrorStatus; message?: string; noRetry?: boolean; echoApiKey?: boolean }
  /** Read the request and never answer (until close()). */
  | { kind: 'hang' }
  /** 200, headers and message_start, then nothing. */
  | { kind: 'stall' }
  /**
   * message_start, a Skill content_block_start and two input deltas, then the socket is destroyed.
   * With `afterText`, a complete text block comes first: the CLI has already printed it as an
   * `assistant` event when the stream breaks, so a reader that takes it as the whole message errs.
   */
  | { kind: 'cut'; afterText?: string }
  /** Destroy the socket without any response. */
  | { kind: 'reset' }
  /**
   * What a hostile prompt could get out of a model (the security tests): `calls` in one message,
   * which the CLI runs one by one as each block completes, before the message has ended; then,
   * with `afterwards`, a second message of calls in which `{{NAME}}` inside any string input
   * becomes the value of NAME as the tool results sent back showed it (`NAME=value`, e.g. a key
   * an `env` printed). A placeholder whose value never appeared is left as it is.
   */
  | {
      kind: 'tool-calls';
      calls: ToolCall[];
      afterwards?: ToolCall[];
      /**
       * Where the API offers a code tool (Codex's `exec`), the first message's calls as ONE cell
       * that awaits them in turn (`sequential`) or at once (`parallel`, `Promise.all`); by default
       * each call is a cell of its own. The Messages side has no cells and ignores it.
       */
      cell?: CellShape;
      /**
       * A pause (ms) before each output item after the first of the first message, on the Responses
       * side: a later call then arrives after an earlier one has already run.
       */
      gapMs?: number;
    };

/** How one message's calls are put into a code cell (see the `tool-calls` behaviour). */
export type CellShape = 'sequential' | 'parallel';

export interface ScriptContext {
  /** 0-based count of first-turn requests seen so far for this query (retries and fallbacks count). */
  occurrence: number;
  /** Seeded, deterministic per (seed, query, occurrence). */
  random: () => number;
}

/** Decides the first-turn behaviour; `undefined` means the default (`pong` for the gate query, else text). */
export type Script = (req: RequestView, ctx: ScriptContext) => Behaviour | undefined;
