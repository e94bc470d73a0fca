import path from 'node:path';
import { InputError, InputErrors, UsageError } from '../errors.js';
import type { ContextTurn } from '../inputs/context.js';
import { loadContext } from '../inputs/context-file.js';
import { contextFillTurns } from '../inputs/context-fill.js';
import { annotate } from './annotate.js';
import { Inputs } from './constants.js';
import type { MeasureTarget } from './plan.js';
import type { Settings } from './settings.js';

/**
 * The Action's contexts (docs/context.md, docs/action.md): the `context` file read and checked
 * before the gates, the turns every run starts with (the file's, or `context-fill`'s), and
 * `versus-fresh` refused before the gates when no query of any measured skill carries a context.
 */

/** The fix the Action gives for a `context` path that names no readable file. */
const MISSING_FIX = `set ${Inputs.Context} to a context file in the repository, as a path relative to the workspace (docs/context.md), or leave it empty`;

/**
 * The settings with the `context` file's turns (`contextTurns`), read from the workspace. A file that
 * is missing, unreadable or malformed is annotated on the file (and line) and fails the step with
 * exit 1, naming the input, the file as the workflow wrote it, the line and the fix.
 */
export async function withActionContext(workspace: string, settings: Settings): Promise<Settings> {
  const file = settings.context;
  if (file === undefined) return settings;
  try {
    const { turns } = await loadContext(path.resolve(workspace, file));
    return { ...settings, contextTurns: turns };
  } catch (error) {
    const errors =
      error instanceof InputErrors ? error.errors : error instanceof InputError ? [error] : undefined;
    if (errors === undefined) throw error;
    const named = errors.map((e) => {
      // A path that names no readable file gets the input's fix; a defect inside the file keeps its own.
      const unread = e.location.line === undefined && e.location.entry === undefined;
      return new InputError({ ...e.location, file }, e.problem, unread ? MISSING_FIX : e.fix);
    });
    for (const e of named) {
      annotate('error', `${e.problem}${e.fix ? `. Fix: ${e.fix}` : ''}`, {
        title: 'skilltrigger: input error',
        file,
        ...(e.location.line === undefined ? {} : { startLine: e.location.line }),
      });
    }
    throw new UsageError(`input ${Inputs.Context}: ${named.map((e) => e.message).join('\n')}`);
  }
}

/** The turns every run without a context of its own starts with: `context`'s, else `context-fill`'s. */
export function runTurns(settings: Settings): readonly ContextTurn[] | undefined {
  if (settings.contextTurns !== undefined) return settings.contextTurns;
  return settings.contextFill === undefined ? undefined : contextFillTurns(settings.contextFill);
}

/**
 * `versus-fresh` with nothing to measure against a fresh start: no `context`, no `context-fill`, and
 * no entry of any measured skill's eval set with a context of its own. Refused (exit 1) before the
 * gates, as the CLI refuses it.
 */
export function versusFreshRefusal(
  targets: readonly MeasureTarget[],
  settings: Settings,
): UsageError | undefined {
  if (!settings.versusFresh || targets.length === 0 || runTurns(settings) !== undefined) return undefined;
  const own = targets.some((t) => t.evalSet.items.some((item) => item.context?.turns !== undefined));
  if (own) return undefined;
  return new UsageError(
    `input ${Inputs.VersusFresh}: no query of the measured skills carries a context, so there is no session to measure against a fresh start. Fix: set ${Inputs.Context} or ${Inputs.ContextFill}, give the eval sets' entries a "context" (docs/context.md), or set ${Inputs.VersusFresh}: false`,
  );
}
