import { maskSecrets } from '../mask.js';

/** Where the CLI writes text: stdout or stderr, as the commands see them. */
export interface Output {
  write(text: string): unknown;
  isTTY?: boolean;
}

/** What a command is given of the outside: its two streams and its environment. */
export interface CliIo {
  stdout: Output;
  stderr: Output;
  env: NodeJS.ProcessEnv;
}

/**
 * A terminal stream the CLI may lose at any moment: `run … | head -1` closes stdout after one
 * line, a closed terminal or `2>&- `-like pipe fails stderr with EPIPE or EIO. Losing the reader
 * must never end a measurement, so a stream that errored is marked gone and every later write is
 * dropped; the run goes on, the report is written, the exit code is the measurement's. Every
 * write is masked (src/mask.ts) on its way out.
 */
export function guardedOutput(stream: NodeJS.WriteStream | NodeJS.WritableStream): Output & {
  /** The reader went away (EPIPE, EIO): nothing more is written. */
  readonly gone: boolean;
} {
  let gone = false;
  // Without a listener, an EPIPE 'error' event is an uncaught exception that ends the process.
  stream.on('error', () => {
    gone = true;
  });
  return {
    get gone() {
      return gone;
    },
    get isTTY() {
      return 'isTTY' in stream && stream.isTTY === true;
    },
    write(text: string) {
      if (gone) return false;
      try {
        return stream.write(maskSecrets(text));
      } catch {
        // A stream already destroyed can throw synchronously instead of emitting 'error'.
        gone = true;
        return false;
      }
    },
  };
}
