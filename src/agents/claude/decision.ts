import path from 'node:path';
import { addUsage, type ErrorCause, NO_USAGE, type Outcome, type Usage } from '../../outcome.js';
import { classifyApiError } from '../api-error.js';
import type { InitInfo, LoadedEntry, SiblingIdentity, StubIdentity } from '../runs.js';
import type { ContentBlock, StreamEvent } from './events.js';

/** The tools that load a stub. `SlashCommand` no longer exists in 2.1.x but older CLIs offered it. */
const LOADERS = new Set(['Skill', 'SlashCommand']);
/** Fetching tool schemas is preparation, not a choice: a message that only does this does not decide. */
const NEUTRAL_TOOLS = new Set(['ToolSearch']);

/**
 * The decision rule (docs/claude-cli.md §4–5, docs/design.md "How a run is decided"):
 * - only `assistant` events decide; stream_event partials are ignored (they can be phantoms after a
 *   cut stream, and a non-streaming fallback has none);
 * - the CLI emits one `assistant` event per content block, so events are grouped by `message.id`;
 * - a message of only thinking and/or ToolSearch calls is not decisive; the next message is;
 * - the first decisive message triggered if any of its blocks loads the stub, wherever it stands;
 *   a hit decides at once, a miss only once the message has really ended (the `message_delta`
 *   of a message that asks for tools, which the CLI prints after every block's `assistant` event;
 *   else the next turn's `status`, a new message id, or the `result`) because tools run
 *   mid-message and a `user` event does not mark the end;
 * - synthetic/API-error messages and `result.is_error` are errors, never misses;
 * - a streamed message that was cut (it started, but no `message_delta` came) is never a miss:
 *   when the CLI asks the model to resume it in a new turn, the resumed message continues it;
 *   when a retry or a non-streaming fallback answers the same request again, that answer
 *   replaces it; when the run ends on it, the run is a network error.
 */
export class Decider {
  private outcome: Outcome | undefined;
  private currentId: string | undefined;
  /** The current message has a text or non-neutral tool block: it decides, once it ends. */
  private currentDecisive = false;
  /** What the current message loaded so far, short of the stub (the first sibling, else another skill). */
  private currentLoaded: LoadedEntry = { kind: 'none' };
  /** A cut message's blocks, carried into the message that resumes it. */
  private carriedDecisive = false;
  private carriedLoaded: LoadedEntry = { kind: 'none' };
  /** What the deciding message loaded, once the outcome is triggered or not-triggered. */
  private loadedEntry: LoadedEntry | undefined;
  /** Messages whose stream started (`message_start`), and those that really ended (`message_delta`). */
  private readonly streamedIds = new Set<string>();
  private readonly completedIds = new Set<string>();
  private readonly usageById = new Map<string, Usage>();
  private resultUsage: Usage | undefined;
  /** The id of the message that decided a miss (the late watch starts after it). */
  private missId: string | undefined;
  private retryStatus: number | null | undefined;
  private retryError: string | undefined;
  init: InitInfo | undefined;

  constructor(
    private readonly stub: StubIdentity,
    private readonly siblings: readonly SiblingIdentity[] = [],
  ) {}

  get decided(): Outcome | undefined {
    return this.outcome;
  }

  /** What the first decisive message loaded; undefined until a triggered or not-triggered outcome. */
  get loaded(): LoadedEntry | undefined {
    return this.loadedEntry;
  }

  /** The message that was decided a miss, when the outcome is `not-triggered`. */
  get missMessageId(): string | undefined {
    return this.missId;
  }

  /** Tokens and cost the stream carried up to now. The `result` event, when seen, is authoritative. */
  get usage(): Usage {
    if (this.resultUsage) return this.resultUsage;
    let total = NO_USAGE;
    for (const u of this.usageById.values()) total = addUsage(total, u);
    return total;
  }

  /**
   * Feed one event; returns the outcome the moment it is known (and keeps returning it). Usage is
   * still counted after the decision, for the turns a late watch (`--late`) lets the run go on.
   */
  feed(event: StreamEvent): Outcome | undefined {
    this.trackUsage(event);
    if (this.outcome) return this.outcome;
    switch (event.type) {
      case 'init':
        this.init = {
          ...(event.model === undefined ? {} : { model: event.model }),
          ...(event.cliVersion === undefined ? {} : { cliVersion: event.cliVersion }),
          slashCommands: event.slashCommands,
          skills: event.skills,
          mcpServers: event.mcpServers,
        };
        // The model cannot pick a stub the CLI did not load: such a run measures nothing.
        if (!event.slashCommands.includes(this.stub.name) && !event.skills.includes(this.stub.name)) {
          return this.decide({ kind: 'error', cause: 'no-stub' });
        }
        return undefined;
      case 'status':
        return this.endCurrentMessage('turn');
      case 'stream-event':
        if (event.messageId !== undefined) {
          if (event.event === 'message_start') this.streamedIds.add(event.messageId);
          if (event.event === 'message_delta') {
            this.completedIds.add(event.messageId);
            // Every block of the message was read before its end. One that asks for tools is over
            // here: a miss does not wait for them to run and the next turn to start. A plain answer
            // waits for the result (~14 ms), which carries the CLI's own cost (docs/cost.md).
            if (event.messageId === this.currentId && event.stopReason === 'tool_use')
              return this.endCurrentMessage('message-end');
          }
        }
        return undefined;
      case 'api-retry':
        this.retryStatus = event.status;
        if (event.error !== undefined) this.retryError = event.error;
        return undefined;
      case 'assistant':
        return this.onAssistant(event);
      case 'result':
        return this.onResult(event);
      default:
        return undefined;
    }
  }

  /**
   * The process ended (or the stream closed) without an outcome so far. A decisive message still
   * open is not trusted as a miss here: without an end signal it may have been cut.
   */
  finish(exit: { spawnFailed?: boolean; exitCode?: number; signal?: string }): Outcome {
    if (this.outcome) return this.outcome;
    if (exit.spawnFailed) return this.decide({ kind: 'error', cause: 'cli-missing' });
    if (this.retryStatus !== undefined || this.retryError !== undefined) {
      return this.decide(this.apiError({ status: this.retryStatus ?? undefined, error: this.retryError }));
    }
    const cause: ErrorCause = exit.exitCode === 0 && !exit.signal ? 'no-decision' : 'crash';
    return this.decide({ kind: 'error', cause });
  }

  /** Tokens per message (the assistant events repeat message_start's; message_delta has the final count). */
  private trackUsage(event: StreamEvent): void {
    if (event.type === 'assistant' && event.usage && !this.usageById.has(event.messageId)) {
      this.usageById.set(event.messageId, event.usage);
    } else if (event.type === 'stream-event' && event.event === 'message_delta' && event.messageId) {
      const known = this.usageById.get(event.messageId);
      if (known && event.usage) {
        // message_delta's counts are cumulative for the message: keep the larger of each.
        this.usageById.set(event.messageId, {
          ...known,
          outputTokens: Math.max(known.outputTokens, event.usage.outputTokens),
          inputTokens: Math.max(known.inputTokens, event.usage.inputTokens),
        });
      }
    } else if (event.type === 'result' && event.usage) {
      this.resultUsage = {
        ...event.usage,
        ...(event.costUsd === undefined ? {} : { costUsd: event.costUsd }),
      };
    }
  }

  private onAssistant(event: Extract<StreamEvent, { type: 'assistant' }>): Outcome | undefined {
    if (event.parentToolUseId !== null) return undefined;
    if (event.synthetic || event.error !== undefined) {
      const text = event.blocks.map((b) => (b.kind === 'text' ? b.text : '')).join(' ');
      return this.decide(this.apiError({ status: event.apiErrorStatus, error: event.error, text }));
    }
    if (event.messageId !== this.currentId) {
      const ended = this.endCurrentMessage('new-message');
      if (ended) return ended;
      this.currentId = event.messageId;
      this.currentDecisive = this.carriedDecisive;
      this.currentLoaded = this.carriedLoaded;
      this.carriedDecisive = false;
      this.carriedLoaded = { kind: 'none' };
    }
    for (const block of event.blocks) {
      if (loadsStub(block, this.stub)) {
        this.loadedEntry = { kind: 'stub' };
        return this.decide({ kind: 'triggered' });
      }
      if (isDecisive(block)) this.currentDecisive = true;
      if (this.currentLoaded.kind !== 'sibling') {
        const sibling = this.siblings.find((s) => loadsStub(block, s));
        if (sibling) this.currentLoaded = { kind: 'sibling', name: sibling.skillName };
        else if (this.currentLoaded.kind === 'none' && isSkillCall(block))
          this.currentLoaded = { kind: 'other' };
      }
    }
    return undefined;
  }

  private onResult(event: Extract<StreamEvent, { type: 'result' }>): Outcome | undefined {
    if (event.isError) {
      return this.decide(this.apiError({ status: event.apiErrorStatus, text: event.text }));
    }
    const ended = this.endCurrentMessage('result');
    if (ended) return ended;
    return this.decide({ kind: 'error', cause: 'no-decision' });
  }

  /**
   * The current message is over: by its own `message_delta` asking for tools, by a new turn
   * (`status`), by another message id, or by the `result`. A decisive message that really ended is a miss. One that was cut is not: what the
   * model meant to do after the cut is unknown (docs/claude-cli.md §4, and the resume turn
   * 2.1.328 starts with "Your response above was cut off mid-stream").
   */
  private endCurrentMessage(by: 'turn' | 'new-message' | 'result' | 'message-end'): Outcome | undefined {
    const id = this.currentId;
    const cut = id !== undefined && this.streamedIds.has(id) && !this.completedIds.has(id);
    if (cut) {
      if (by === 'result') return this.decide({ kind: 'error', cause: 'network' });
      // A resume turn continues the cut message; a re-answer of the same request replaces it.
      this.carriedDecisive = by === 'turn' && this.currentDecisive;
      this.carriedLoaded = by === 'turn' ? this.currentLoaded : { kind: 'none' };
    } else if (id !== undefined && this.currentDecisive) {
      this.missId = id;
      this.loadedEntry = this.currentLoaded;
      return this.decide({ kind: 'not-triggered' });
    }
    this.currentId = undefined;
    this.currentDecisive = false;
    this.currentLoaded = { kind: 'none' };
    return undefined;
  }

  private apiError(signal: {
    status?: number | undefined;
    error?: string | undefined;
    text?: string | undefined;
  }): Outcome {
    const cause = classifyApiError({
      ...(signal.status === undefined ? {} : { status: signal.status }),
      ...(signal.error === undefined ? {} : { error: signal.error }),
      ...(signal.text === undefined ? {} : { text: signal.text }),
    });
    return { kind: 'error', cause, ...(signal.status === undefined ? {} : { status: signal.status }) };
  }

  private decide(outcome: Outcome): Outcome {
    this.outcome = outcome;
    return outcome;
  }
}

/** Whether a tool call loads the stub: a Skill (or old SlashCommand) naming it, or a Read of its file. */
export function loadsStub(block: ContentBlock, stub: StubIdentity): boolean {
  if (block.kind !== 'tool_use') return false;
  if (LOADERS.has(block.name)) {
    const named = block.input.skill ?? block.input.command ?? block.input.name;
    return typeof named === 'string' && namesStub(named, stub.name);
  }
  if (block.name === 'Read') {
    const file = block.input.file_path;
    if (typeof file !== 'string' || file === '') return false;
    const resolved = path.resolve(stub.projectDir, file);
    return resolved === stub.filePath || (stub.aliases ?? []).includes(resolved);
  }
  return false;
}

/** A Skill (or old SlashCommand) call, whatever it names: loading some entry of the listing. */
function isSkillCall(block: ContentBlock): boolean {
  return block.kind === 'tool_use' && LOADERS.has(block.name);
}

function isDecisive(block: ContentBlock): boolean {
  switch (block.kind) {
    case 'thinking':
    case 'other':
      return false;
    case 'text':
      return true;
    case 'tool_use':
      return !NEUTRAL_TOOLS.has(block.name);
  }
}

/**
 * Exact name match: `stub`, `/stub`, `plugin:stub`, and for an old SlashCommand `/stub args`.
 * Never a substring match: "pdf" must not match a path holding `report.pdf`.
 */
export function namesStub(value: string, stub: string): boolean {
  const first = value.trim().split(/\s+/)[0] ?? '';
  const bare = first.startsWith('/') ? first.slice(1) : first;
  if (bare === stub) return true;
  const colon = bare.lastIndexOf(':');
  return colon > 0 && bare.slice(colon + 1) === stub;
}
