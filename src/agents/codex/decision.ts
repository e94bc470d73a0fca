import { addUsage, type ErrorCause, NO_USAGE, type Outcome, type Usage } from '../../outcome.js';
import type { LoadedEntry } from '../agent.js';
import { classifyApiError } from '../api-error.js';
import { readsSomeSkillFile, type SkillFiles, skillUse } from './command.js';
import type { CodexEvent } from './events.js';

/** The stub as Codex's commands spell it: its listed name, its SKILL.md, the project it runs in. */
export interface CodexStubIdentity extends SkillFiles {
  name: string;
  /** The temp project: the working directory of every command of the run. */
  projectDir: string;
}

export type CodexSiblingIdentity = CodexStubIdentity & { skillName: string };

/**
 * The Codex decision rule (docs/codex.md "The decision"): the first decisive action of the first
 * turn.
 * - Reasoning and plan updates are not decisive.
 * - A command that reads the stub's SKILL.md, or runs a script under its `scripts/`, is
 *   `triggered` the moment it starts (item.started), whatever it prints or exits with.
 * - The first command opens the first response's group: every command that starts while one of
 *   the group is still running came from the same model response (Codex sends the results back
 *   only once all of them finished), so a read of the stub anywhere in the group is `triggered`,
 *   as a Bash call before the Skill call is for Claude Code. The group is decided a miss when its
 *   last command completes without one.
 * - An agent message is decisive only if the turn then ends: Codex ends a turn on a response
 *   without tool calls, so a message followed by a command in the same turn was the commentary of
 *   that command's response, and the command decides.
 * - Any other action (a file change, an MCP call, a web search) is `not-triggered`.
 * - `turn.failed`, a turn that completes undecided, and a process that ends without an outcome are
 *   errors, never misses. A timeout is the caller's.
 */
export class CodexDecider {
  private outcome: Outcome | undefined;
  private loadedEntry: LoadedEntry | undefined;
  private groupLoaded: LoadedEntry = { kind: 'none' };
  private groupOpen = false;
  private readonly running = new Set<string>();
  private readonly seen = new Set<string>();
  private messageFirst = false;
  private turns = 0;
  private lastError: string | undefined;
  private usageTotal: Usage = NO_USAGE;
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

  /** Tokens as turn.completed reported them; a run killed at its decision has none. */
  get usage(): Usage {
    return this.usageTotal;
  }

  feed(event: CodexEvent): Outcome | undefined {
    if (event.type === 'turn-completed' && event.usage)
      this.usageTotal = addUsage(this.usageTotal, event.usage);
    if (event.type === 'thread-started' && event.threadId !== undefined) this.threadId = event.threadId;
    if (this.outcome) return this.outcome;
    switch (event.type) {
      case 'turn-started':
        this.turns += 1;
        return undefined;
      case 'error':
        this.lastError = event.message;
        return undefined;
      case 'turn-failed':
        return this.decide(codexApiError(event.message || this.lastError || ''));
      case 'turn-completed':
        if (this.messageFirst) return this.miss({ kind: 'none' });
        return this.decide({ kind: 'error', cause: 'no-decision' });
      case 'item':
        return this.turns > 1 ? undefined : this.onItem(event);
      default:
        return undefined;
    }
  }

  /** The process ended (or its output closed) without an outcome so far. */
  finish(exit: { spawnFailed?: boolean; exitCode?: number; signal?: string }): Outcome {
    if (this.outcome) return this.outcome;
    if (exit.spawnFailed) return this.decide({ kind: 'error', cause: 'cli-missing' });
    if (this.lastError !== undefined) return this.decide(codexApiError(this.lastError));
    const cause: ErrorCause = exit.exitCode === 0 && !exit.signal ? 'no-decision' : 'crash';
    return this.decide({ kind: 'error', cause });
  }

  private onItem(event: Extract<CodexEvent, { type: 'item' }>): Outcome | undefined {
    const { item, id, phase } = event;
    switch (item.kind) {
      case 'reasoning':
      case 'plan':
      case 'error-item':
      case 'unknown':
        return undefined;
      case 'agent-message':
        if (!this.groupOpen) this.messageFirst = true;
        return undefined;
      case 'other-action':
        return this.groupOpen ? undefined : this.miss({ kind: 'none' });
      case 'command': {
        const first = !this.seen.has(id);
        this.seen.add(id);
        if (first) {
          this.groupOpen = true;
          const hit = this.onCommand(item.command);
          if (hit) return hit;
          if (phase === 'started') this.running.add(id);
        }
        if (phase === 'completed') {
          this.running.delete(id);
          if (this.running.size === 0) return this.miss(this.groupLoaded);
        }
        return undefined;
      }
    }
  }

  /** A command of the first response: triggered if it uses the stub, else what it loaded noted. */
  private onCommand(command: string): Outcome | undefined {
    const cwd = this.stub.projectDir;
    if (skillUse(command, cwd, this.stub) !== undefined) {
      this.loadedEntry = { kind: 'stub' };
      return this.decide({ kind: 'triggered' });
    }
    if (this.groupLoaded.kind === 'sibling') return undefined;
    const sibling = this.siblings.find((s) => skillUse(command, s.projectDir, s) !== undefined);
    if (sibling) this.groupLoaded = { kind: 'sibling', name: sibling.skillName };
    else if (this.groupLoaded.kind === 'none' && readsSomeSkillFile(command, cwd))
      this.groupLoaded = { kind: 'other' };
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
