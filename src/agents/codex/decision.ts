import { type ErrorCause, NO_USAGE, type Outcome, type Usage } from '../../outcome.js';
import { classifyApiError } from '../api-error.js';
import type { LoadedEntry } from '../runs.js';
import { commandLine, readsSomeSkillFile, type SkillFiles, skillUse } from './command.js';
import type { CodexEvent } from './events.js';
import type { RolloutEntry } from './rollout.js';

/** The stub as Codex's commands spell it: its listed name, its SKILL.md, the project it runs in. */
export interface CodexStubIdentity extends SkillFiles {
  name: string;
  /** The temp project: the working directory of every command of the run. */
  projectDir: string;
}

export type CodexSiblingIdentity = CodexStubIdentity & { skillName: string };

/** One model response as the rollout records it: its calls, which have returned, what they ran. */
interface Response {
  calls: Set<string>;
  returned: Set<string>;
  commands: number;
  actions: number;
  /** What its commands loaded so far, short of the stub: a sibling beats another skill, beats none. */
  loaded: LoadedEntry;
}

function emptyResponse(): Response {
  return { calls: new Set(), returned: new Set(), commands: 0, actions: 0, loaded: { kind: 'none' } };
}

/**
 * The Codex decision rule (docs/codex.md "The decision"): the first decisive response of the
 * first turn, its boundary read from the session rollout, never from timing.
 * - A response is the model items the rollout records (messages, reasoning, calls) up to the
 *   moment every call of it has returned: Codex records a call's output only once the response has
 *   streamed to its end and the call has finished, and sends nothing back to the model before.
 * - A command that reads the stub's SKILL.md, or runs a script under its `scripts/`, in that
 *   response is `triggered` as soon as the rollout records it, whatever it printed or exited with:
 *   the first command or the last, in one `exec` cell or in parallel calls.
 * - Once every call has returned, a response that ran a command (or another action) without
 *   touching the stub is `not-triggered`; what it loaded instead (a sibling, another skill's
 *   SKILL.md) is noted. A response whose calls ran nothing (a cell that only looks at its tools, a
 *   plan update) is not decisive: the next response is judged instead.
 * - A turn that ends after a message with nothing decisive is `not-triggered`.
 * - A failed turn, a turn that ends with nothing decisive, and a process that ends without an
 *   outcome are errors, never misses. A timeout is the caller's.
 * The `--json` stdout does not decide: it only says why a run without a readable rollout ended.
 */
export class CodexDecider {
  private outcome: Outcome | undefined;
  private loadedEntry: LoadedEntry | undefined;
  private response = emptyResponse();
  private closed = false;
  private answered = false;
  private rolloutUsage: Usage | undefined;
  private stdoutUsage: Usage | undefined;
  private stdoutFailure: string | undefined;
  private lastError: string | undefined;
  threadId: string | undefined;

  constructor(
    private readonly stub: CodexStubIdentity,
    private readonly siblings: readonly CodexSiblingIdentity[] = [],
  ) {}

  get decided(): Outcome | undefined {
    return this.outcome;
  }

  /** What the deciding response loaded, once the outcome is triggered or not-triggered. */
  get loaded(): LoadedEntry | undefined {
    return this.loadedEntry;
  }

  /** Tokens as Codex recorded them; a run killed at its decision usually has none. */
  get usage(): Usage {
    return this.rolloutUsage ?? this.stdoutUsage ?? NO_USAGE;
  }

  /** One line of the rollout, in the order Codex wrote it. */
  feed(entry: RolloutEntry): Outcome | undefined {
    if (entry.kind === 'usage') this.rolloutUsage = entry.usage;
    if (entry.kind === 'session') this.threadId ??= entry.id;
    if (this.outcome) return this.outcome;
    switch (entry.kind) {
      case 'message':
        this.open();
        this.answered = true;
        return undefined;
      case 'reasoning':
        this.open();
        return undefined;
      case 'call':
        this.open();
        this.response.calls.add(entry.callId);
        return undefined;
      case 'command':
        this.response.commands += 1;
        return this.onCommand(commandLine(entry.argv), entry.cwd ?? this.stub.projectDir);
      case 'action':
        this.response.actions += 1;
        return undefined;
      case 'call-output':
        return this.onReturned(entry.callId);
      case 'turn-end':
        if (entry.error !== undefined) return this.decide(codexApiError(entry.error || this.lastError || ''));
        if (this.answered) return this.miss({ kind: 'none' });
        return this.decide({ kind: 'error', cause: 'no-decision' });
      default:
        return undefined;
    }
  }

  /** One `--json` line: what it says is kept for a run whose rollout never told how it ended. */
  noteStdout(event: CodexEvent): void {
    switch (event.type) {
      case 'thread-started':
        if (event.threadId !== undefined) this.threadId ??= event.threadId;
        return;
      case 'error':
        this.lastError = event.message;
        return;
      case 'turn-failed':
        this.stdoutFailure = event.message || this.lastError || '';
        return;
      case 'turn-completed':
        if (event.usage) this.stdoutUsage = event.usage;
        return;
      default:
        return;
    }
  }

  /** The process ended (and its rollout was read to the end) without an outcome so far. */
  finish(exit: { spawnFailed?: boolean; exitCode?: number; signal?: string }): Outcome {
    if (this.outcome) return this.outcome;
    if (exit.spawnFailed) return this.decide({ kind: 'error', cause: 'cli-missing' });
    const failure = this.stdoutFailure ?? this.lastError;
    if (failure !== undefined) return this.decide(codexApiError(failure));
    const cause: ErrorCause = exit.exitCode === 0 && !exit.signal ? 'no-decision' : 'crash';
    return this.decide({ kind: 'error', cause });
  }

  /** A model item after every call of the response returned starts the next response. */
  private open(): void {
    if (!this.closed) return;
    this.response = emptyResponse();
    this.closed = false;
  }

  private onReturned(callId: string): Outcome | undefined {
    const { response } = this;
    if (!response.calls.has(callId)) return undefined;
    response.returned.add(callId);
    if (response.returned.size < response.calls.size) return undefined;
    this.closed = true;
    if (response.commands + response.actions === 0) return undefined;
    return this.miss(response.loaded);
  }

  /** A command of the current response: triggered if it uses the stub, else what it loaded noted. */
  private onCommand(command: string, cwd: string): Outcome | undefined {
    if (skillUse(command, cwd, this.stub) !== undefined) {
      this.loadedEntry = { kind: 'stub' };
      return this.decide({ kind: 'triggered' });
    }
    const { response } = this;
    if (response.loaded.kind === 'sibling') return undefined;
    const sibling = this.siblings.find((s) => skillUse(command, cwd, s) !== undefined);
    if (sibling) response.loaded = { kind: 'sibling', name: sibling.skillName };
    else if (response.loaded.kind === 'none' && readsSomeSkillFile(command, cwd))
      response.loaded = { kind: 'other' };
    return undefined;
  }

  private miss(loaded: LoadedEntry): Outcome {
    this.loadedEntry = loaded;
    return this.decide({ kind: 'not-triggered' });
  }

  private decide(outcome: Outcome): Outcome {
    this.outcome = outcome;
    return outcome;
  }
}

/**
 * A failed turn's message as a cause. Codex prints `unexpected status 401 Unauthorized: …` or
 * `exceeded retry limit, last status: 429 …` when it has a status; a 500 becomes "We're currently
 * experiencing high demand…", a cut stream "stream disconnected before completion: …", and an
 * unknown model "The requested model does not exist." (docs/codex.md "Failures").
 */
export function codexApiError(message: string): Outcome {
  const match = /\bstatus:? (\d{3})\b/.exec(message);
  const status = match?.[1] === undefined ? undefined : Number(match[1]);
  if (status === undefined) {
    if (/stream disconnected|error sending request|connection|timed out|network/i.test(message))
      return { kind: 'error', cause: 'network' };
    if (/\bmodel\b/i.test(message)) return { kind: 'error', cause: 'model' };
    return { kind: 'error', cause: classifyApiError({ text: message }) };
  }
  return { kind: 'error', cause: classifyApiError({ status, text: message }), status };
}
