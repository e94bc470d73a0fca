import type { Outcome } from '../../outcome.js';
import type { StubIdentity } from '../runs.js';
import type { Decider } from './decision.js';
import { parseEvent, type StreamEvent } from './events.js';
import { LateWatch } from './late.js';

/** A run's two ends other than its stream: its timeout and an interrupt. */
export interface RunLimits {
  timedOut: Promise<'timeout'>;
  aborted: Promise<'aborted'>;
  /** Stops the timer and forgets the signal, once the run is decided. */
  clear(): void;
}

/** Starts the run's timeout and listens for its interrupt. */
export function runLimits(timeoutMs: number, signal?: AbortSignal): RunLimits {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<'aborted'>((resolve) => {
    onAbort = () => resolve('aborted');
    // An abort while the project was being made has already fired: its listener would never run.
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
  });
  return {
    timedOut,
    aborted,
    clear() {
      clearTimeout(timer);
      if (onAbort) signal?.removeEventListener('abort', onAbort);
    },
  };
}

/**
 * A run's stream events, read from one iterator for the whole run: leaving a `for await` would
 * close the stream, and the late watch reads on after the decision. Notes when the init event and
 * the CLI's first status (its request follows) came.
 */
export class EventReader {
  initAt: number | undefined;
  askedAt: number | undefined;
  private readonly events: AsyncIterator<string>;

  constructor(
    lines: AsyncIterable<string>,
    private readonly now: () => number,
    private readonly onAsked?: () => void,
  ) {
    this.events = lines[Symbol.asyncIterator]();
  }

  /** Reads events until `stop` says so (true) or the stream ends (false). */
  async readUntil(stop: (event: StreamEvent) => boolean): Promise<boolean> {
    for (;;) {
      const next = await this.events.next();
      if (next.done) return false;
      const event = parseEvent(next.value);
      if (event.type === 'init') this.initAt ??= this.now();
      if (event.type === 'status' && this.askedAt === undefined) {
        this.askedAt = this.now();
        this.onAsked?.();
      }
      if (stop(event)) return true;
    }
  }

  /** Closes the stream, so none is left dangling after the stop. */
  async close(): Promise<void> {
    await this.events.return?.(undefined).catch(() => undefined);
  }
}

/** How the watch of a run ended: its first end, whether the stub loaded late, and the decision's read. */
export interface Watched {
  /** The decision, the timeout, the interrupt, or undefined when stdout closed undecided. */
  first: Outcome | 'timeout' | 'aborted' | undefined;
  late: boolean;
  /** The read of the decision, drained after the stop. */
  read: Promise<Outcome | undefined>;
}

/**
 * Reads the run to its decision, its timeout or its interrupt, then (`--late N`, after a miss)
 * watches up to N more turns for a late load of the stub.
 */
export async function watchRun(
  reader: EventReader,
  decider: Decider,
  limits: RunLimits,
  stub: StubIdentity,
  lateTurns: number,
): Promise<Watched> {
  let decided: Outcome | undefined;
  const read = reader
    .readUntil((event) => {
      decided = decider.feed(event);
      return decided !== undefined;
    })
    .then(() => decided);

  const first = await Promise.race([read, limits.timedOut, limits.aborted]);
  let late = false;
  if (first !== 'timeout' && first !== 'aborted' && first?.kind === 'not-triggered' && lateTurns > 0) {
    // The timeout still bounds the whole run; a watch cut by it (or by Ctrl-C) is a plain miss.
    const watch = new LateWatch(stub, decider.missMessageId, lateTurns);
    const watched = reader.readUntil((event) => {
      decider.feed(event); // the watched turns' tokens are spent too
      return watch.feed(event);
    });
    await Promise.race([watched, limits.timedOut, limits.aborted]);
    late = watch.loaded;
  }
  return { first, late, read };
}
