import path from 'node:path';
import { type ErrorCause, NO_USAGE, type Outcome, type Usage } from '../../outcome.js';
import { classifyApiError } from '../api-error.js';
import type { LoadedEntry } from '../runs.js';
import type { GeminiEvent } from './events.js';

/** The stub as Gemini's calls name it: its listed name and its SKILL.md. */
export interface GeminiStubIdentity {
  name: string;
  /** Absolute path of the SKILL.md. */
  filePath: string;
  /** Other absolute spellings of it (the realpath when the temp folder sits behind a symlink). */
  aliases?: readonly string[];
}

export type GeminiSiblingIdentity = GeminiStubIdentity & { skillName: string };

/** Which skill a call loads: by `activate_skill`'s name, or by a `read_file` of its SKILL.md. */
function loads(
  call: Extract<GeminiEvent, { type: 'tool-use' }>,
  skill: GeminiStubIdentity,
  projectDir: string,
): boolean {
  const { toolName, parameters } = call;
  if (toolName === 'activate_skill') return parameters.name === skill.name;
  if (toolName !== 'read_file' || typeof parameters.file_path !== 'string') return false;
  const file = path.resolve(projectDir, parameters.file_path);
  return file === skill.filePath || (skill.aliases ?? []).includes(file);
}

/**
 * The Gemini decision rule (docs/gemini.md "The decision"), fed the stream's events in order:
 * - The first response is every `tool_use` printed before the first `tool_result`: Gemini CLI
 *   prints all the calls of one model response before it runs any of them.
 * - `activate_skill` naming the stub, or `read_file` of its SKILL.md, anywhere in the first
 *   response is `triggered` the moment it is printed, whatever came before it in that response
 *   (text, another call).
 * - The first `tool_result` closes the first response without a load: `not-triggered` (another
 *   tool, another skill). A load after it is late, and never seen.
 * - A run that ends (`result` success) with text and no call is `not-triggered`: the model answered.
 * - `result` with status error is an API error; a run that ends with neither text nor a call, or a
 *   process that ends without a result, is an error too, never a miss. A timeout is the caller's.
 */
export class GeminiDecider {
  private outcome: Outcome | undefined;
  private loadedEntry: LoadedEntry | undefined;
  private firstLoaded: LoadedEntry = { kind: 'none' };
  private answered = false;
  private lastError: string | undefined;
  private usageTotal: Usage = NO_USAGE;
  sessionId: string | undefined;
  model: string | undefined;

  constructor(
    private readonly stub: GeminiStubIdentity,
    private readonly projectDir: string,
    private readonly siblings: readonly GeminiSiblingIdentity[] = [],
  ) {}

  get decided(): Outcome | undefined {
    return this.outcome;
  }

  /** What the deciding response loaded, once the outcome is triggered or not-triggered. */
  get loaded(): LoadedEntry | undefined {
    return this.loadedEntry;
  }

  /** Tokens as the result event reported them; a run killed at its decision has none. */
  get usage(): Usage {
    return this.usageTotal;
  }

  feed(event: GeminiEvent): Outcome | undefined {
    if (event.type === 'init') {
      this.sessionId = event.sessionId;
      this.model = event.model;
    }
    if (event.type === 'result' && event.usage) this.usageTotal = event.usage;
    if (this.outcome) return this.outcome;
    switch (event.type) {
      case 'message':
        if (event.role === 'assistant' && event.content.trim() !== '') this.answered = true;
        return undefined;
      case 'tool-use':
        return this.onCall(event);
      case 'tool-result':
        return this.miss(this.firstLoaded);
      case 'error':
        this.lastError = event.message;
        return undefined;
      case 'result':
        if (event.status !== 'success') return this.onFailure(event.errorMessage ?? this.lastError ?? '');
        if (this.answered) return this.miss({ kind: 'none' });
        return this.decide({ kind: 'error', cause: 'no-decision' });
      default:
        return undefined;
    }
  }

  /** The process ended (or its output closed) without an outcome so far. */
  finish(exit: { spawnFailed?: boolean; exitCode?: number; signal?: string } = {}): Outcome {
    if (this.outcome) return this.outcome;
    if (exit.spawnFailed) return this.decide({ kind: 'error', cause: 'cli-missing' });
    const status = statusOfExit(exit.exitCode);
    if (this.lastError !== undefined) return this.decide(geminiApiError(this.lastError, status));
    if (status !== undefined) return this.decide(geminiApiError('', status));
    const cause: ErrorCause = exit.exitCode === 0 && !exit.signal ? 'no-decision' : 'crash';
    return this.decide({ kind: 'error', cause });
  }

  /**
   * A failed run: decided now when its message names the HTTP status; else when the process exits,
   * whose exit code is the status modulo 256 (a 429's message quotes only the API's text).
   */
  private onFailure(message: string): Outcome | undefined {
    const outcome = geminiApiError(message);
    if (outcome.kind === 'error' && outcome.status === undefined && outcome.cause !== 'network') {
      this.lastError = message;
      return undefined;
    }
    return this.decide(outcome);
  }

  private onCall(call: Extract<GeminiEvent, { type: 'tool-use' }>): Outcome | undefined {
    if (loads(call, this.stub, this.projectDir)) {
      this.loadedEntry = { kind: 'stub' };
      return this.decide({ kind: 'triggered' });
    }
    if (this.firstLoaded.kind === 'sibling') return undefined;
    const sibling = this.siblings.find((s) => loads(call, s, this.projectDir));
    if (sibling) this.firstLoaded = { kind: 'sibling', name: sibling.skillName };
    else if (this.firstLoaded.kind === 'none' && readsSomeSkill(call)) this.firstLoaded = { kind: 'other' };
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

/** An activation of any skill, or a read of any file named SKILL.md. */
function readsSomeSkill(call: Extract<GeminiEvent, { type: 'tool-use' }>): boolean {
  if (call.toolName === 'activate_skill') return true;
  const file = call.parameters.file_path;
  return call.toolName === 'read_file' && typeof file === 'string' && path.basename(file) === 'SKILL.md';
}

/**
 * A failed run's message as a cause. Gemini CLI ends a failed request with
 * `[API Error: <the API's error body>]`, whose `"code": NNN` is the HTTP status; a request that
 * never reached a server reads `[API Error: exception TypeError: fetch failed sending request]`
 * (docs/gemini.md "Failures").
 */
export function geminiApiError(message: string, exitStatus?: number): Outcome {
  const match = /"code"\s*:\s*(\d{3})\b/.exec(message) ?? /\bstatus:? (\d{3})\b/.exec(message);
  const status = match?.[1] === undefined ? exitStatus : Number(match[1]);
  if (status === undefined) {
    if (/fetch failed|ECONNREFUSED|ECONNRESET|socket|network|timed out|terminated/i.test(message))
      return { kind: 'error', cause: 'network' };
    return { kind: 'error', cause: classifyApiError({ text: message }) };
  }
  const cause = status === 503 ? 'overloaded' : classifyApiError({ status, text: message });
  return { kind: 'error', cause, status };
}

/**
 * The HTTP status a failed run's exit code stands for: Gemini CLI exits with the status modulo 256
 * (401 → 145, 429 → 173, 500 → 244), so an exit code maps back to exactly one status from 400 to 599.
 */
export function statusOfExit(exitCode: number | undefined): number | undefined {
  if (exitCode === undefined) return undefined;
  const status = exitCode + 256;
  return status >= 400 && status < 600 ? status : undefined;
}
