/**
 * Exit codes, in one place (docs/design.md): 0 a verdict, 1 usage or input error, 2 a failed gate,
 * 3 no verdict.
 */
export const ExitCode = {
  verdict: 0,
  input: 1,
  gate: 2,
  noVerdict: 3,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/** An error that knows which exit code it maps to. The message says what failed and how to fix it. */
export class SkilltriggerError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** A bad flag or argument. */
export class UsageError extends SkilltriggerError {
  constructor(message: string) {
    super(message, ExitCode.input);
  }
}

/** Where in an input file a defect sits. `entry` is an index (0-based), an id or a query. */
export interface InputLocation {
  file: string;
  line?: number;
  entry?: string;
}

/** A bad input file: names the file, the entry or line, what is wrong, and how to fix it. */
export class InputError extends SkilltriggerError {
  constructor(
    readonly location: InputLocation,
    readonly problem: string,
    readonly fix?: string,
  ) {
    super(formatInputProblem(location, problem, fix), ExitCode.input);
  }
}

/** Several input defects found at once (so `check` and `run` can report all of them together). */
export class InputErrors extends SkilltriggerError {
  constructor(readonly errors: readonly InputError[]) {
    super(errors.map((e) => e.message).join('\n'), ExitCode.input);
  }
}

export function formatInputProblem(location: InputLocation, problem: string, fix?: string): string {
  const where = [location.file, location.line !== undefined ? `line ${location.line}` : undefined]
    .filter(Boolean)
    .join(':');
  const entry = location.entry !== undefined ? ` (${location.entry})` : '';
  return escapeControls(`${where}${entry}: ${problem}${fix ? `. Fix: ${fix}` : ''}`);
}

/**
 * Control characters written as `\u0000` escapes (line breaks and tabs kept). A message about an
 * input file may quote it, sometimes through another program's words (V8's JSON errors quote the
 * bytes around the fault): a raw NUL or ESC from the file must not reach the terminal.
 */
export function escapeControls(text: string): string {
  let out = '';
  for (const c of text) {
    const code = c.codePointAt(0) ?? 0;
    const control = (code < 0x20 && c !== '\n' && c !== '\t') || (code >= 0x7f && code <= 0x9f);
    out += control ? `\\u${code.toString(16).toUpperCase().padStart(4, '0')}` : c;
  }
  return out;
}

/** A gate refused the run; nothing was measured. */
export class GateError extends SkilltriggerError {
  constructor(message: string) {
    super(message, ExitCode.gate);
  }
}

/** What a caught value says: an Error's message, anything else as a string. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
