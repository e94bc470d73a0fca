import type { StubIdentity } from '../runs.js';
import { loadsStub } from './decision.js';
import type { StreamEvent } from './events.js';

/**
 * The late load (`--late N`, docs/claude-cli.md §5): after a run was decided `not-triggered`, watch up to N more
 * turns of the same run and note whether the model loads the stub then (it looked around first —
 * Bash, Glob, a Read of other files — and came to the skill later). A late load is bookkeeping
 * for the author, never a hit: the outcome stays `not-triggered` and pass/fail is unchanged.
 *
 * A turn is one assistant message (one API request) after the decisive one; a message of a turn
 * past the N-th is not looked at. An API error, a subagent message or the end of the run ends the
 * watch without a late load.
 */
export class LateWatch {
  private readonly later = new Set<string>();
  private finished = false;
  private loadedLate = false;

  constructor(
    private readonly stub: StubIdentity,
    private readonly decisiveMessageId: string | undefined,
    private readonly maxTurns: number,
  ) {
    if (maxTurns <= 0) this.finished = true;
  }

  /** The stub was loaded in one of the watched turns. */
  get loaded(): boolean {
    return this.loadedLate;
  }

  /** True once the watch has nothing more to learn (loaded, out of turns, or the run ended). */
  get done(): boolean {
    return this.finished;
  }

  feed(event: StreamEvent): boolean {
    if (this.finished) return true;
    switch (event.type) {
      case 'result':
        this.finished = true;
        break;
      case 'assistant': {
        if (event.parentToolUseId !== null) break;
        if (event.synthetic || event.error !== undefined) {
          this.finished = true;
          break;
        }
        if (event.messageId === this.decisiveMessageId) break;
        if (!this.later.has(event.messageId)) {
          if (this.later.size >= this.maxTurns) {
            this.finished = true;
            break;
          }
          this.later.add(event.messageId);
        }
        if (event.blocks.some((block) => loadsStub(block, this.stub))) {
          this.loadedLate = true;
          this.finished = true;
        }
        break;
      }
      default:
        break;
    }
    return this.finished;
  }
}
