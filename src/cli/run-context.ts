import { UsageError } from '../errors.js';
import { type ContextTurn, describeContext } from '../inputs/context.js';
import { loadContext } from '../inputs/context-file.js';
import { contextFillTurns } from '../inputs/context-fill.js';
import type { EvalItem } from '../inputs/types.js';
import type { CliIo } from './output.js';
import type { RunArgs } from './run-args.js';

/**
 * `--versus-fresh`: how many queries carry a context (their own, or `--context`), each measured
 * fresh too; refused (exit 1) before anything is spent when none does.
 */
export function versusFreshCount(
  items: readonly EvalItem[],
  context: readonly ContextTurn[] | undefined,
  io: CliIo,
): number {
  const count =
    context === undefined ? items.filter((item) => item.context?.turns !== undefined).length : items.length;
  if (count === 0)
    throw new UsageError(
      '--versus-fresh: no query carries a context, so there is no session to measure against a fresh start. Fix: give --context <file>, or a "context" on the eval set\'s entries (docs/context.md)',
    );
  io.stderr.write(
    `versus fresh: ${count} quer${count === 1 ? 'y is' : 'ies are'} measured fresh and with ${count === 1 ? 'its' : 'their'} context, interleaved\n`,
  );
  return count;
}

/**
 * The turns every run starts with: `--context`'s file, read and checked, or `--context-fill`'s N
 * characters of the shipped conversation (docs/context.md); stderr says how many.
 */
export async function runContext(
  given: Pick<RunArgs, 'context' | 'contextFill'>,
  io: CliIo,
): Promise<{ turns: ContextTurn[] } | undefined> {
  if (given.context !== undefined && given.contextFill !== undefined)
    throw new UsageError(
      '--context and --context-fill both give every query its earlier turns. Fix: keep one of them',
    );
  const context =
    given.contextFill !== undefined
      ? { turns: contextFillTurns(given.contextFill) }
      : given.context === undefined
        ? undefined
        : await loadContext(given.context);
  if (context === undefined) return undefined;
  const { turns, chars } = describeContext(context.turns);
  const what = given.contextFill === undefined ? '' : ' of the shipped coding conversation';
  io.stderr.write(
    `context: every run starts with ${turns} earlier turns (${chars} characters${what}) in its history\n`,
  );
  return context;
}
