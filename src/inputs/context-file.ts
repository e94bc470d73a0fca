/**
 * Reading context files (docs/context.md): the one `--context` names, and those eval-set entries
 * name (relative to the eval set). Each read's failure is an input error naming the file, the line,
 * the entry that named it and the fix, all of a set's found together, before anything is spent.
 */
import path from 'node:path';
import { InputError, InputErrors, SkilltriggerError } from '../errors.js';
import { errorCode } from '../guards.js';
import { readInputFile } from '../system/input-file.js';
import { type ParsedContext, parseContextText } from './context.js';
import { inputFailure, quote } from './problems.js';
import type { EvalItem, EvalSet } from './types.js';
import { refuseInvalidUtf8 } from './utf8.js';

/**
 * Reads a context file (`--context`, an eval-set entry's `context`), strict UTF-8, and reads its
 * turns; a missing, unreadable or folder path is an input error naming it.
 */
export async function loadContext(file: string): Promise<ParsedContext> {
  let bytes: Buffer;
  try {
    bytes = await readInputFile(file, 'the context');
  } catch (error) {
    if (error instanceof SkilltriggerError) throw error;
    const code = errorCode(error) ?? String(error);
    throw inputFailure(
      { file },
      code === 'ENOENT'
        ? 'the context file does not exist'
        : code === 'EISDIR'
          ? 'is a folder, not a context file'
          : `cannot read the context file (${code})`,
      'pass a JSON array of turns, or a Claude Code session or Codex rollout (.jsonl)',
    );
  }
  refuseInvalidUtf8(bytes, file, 'the context');
  return parseContextText(bytes.toString('utf8'), file);
}

/**
 * The set with every entry's context file read (`dir`: the eval set's folder on disk), each file
 * once however many entries name it. Every defect of every file is thrown together, each naming
 * the entry that named the file.
 */
export async function resolveEvalContexts(set: EvalSet, dir: string): Promise<EvalSet> {
  const named = set.items.filter((item) => item.context?.file !== undefined && !item.context.turns);
  if (named.length === 0) return set;
  const read = new Map<string, Promise<ParsedContext | InputError[]>>();
  const errors: InputError[] = [];
  const items: EvalItem[] = [];
  for (const item of set.items) {
    const file = item.context?.turns ? undefined : item.context?.file;
    if (file === undefined) {
      items.push(item);
      continue;
    }
    const absolute = path.resolve(dir, file);
    let pending = read.get(absolute);
    if (!pending) {
      pending = loadContext(absolute).catch((error: unknown) => {
        if (error instanceof InputErrors) return [...error.errors];
        if (error instanceof InputError) return [error];
        throw error;
      });
      read.set(absolute, pending);
    }
    const result = await pending;
    if (Array.isArray(result)) {
      errors.push(...result.map((e) => namedBy(e, set.file, item, file, absolute)));
      continue;
    }
    items.push({ ...item, context: { file, turns: result.turns } });
  }
  if (errors.length > 0) throw new InputErrors(errors);
  return { ...set, items };
}

/** A context file's defect, said with the entry that named it (a missing file, on the entry itself). */
function namedBy(
  error: InputError,
  evalFile: string,
  item: EvalItem,
  given: string,
  absolute: string,
): InputError {
  const entry = `the context of ${evalFile} entry ${quote(item.id)}`;
  if (error.location.line === undefined && error.location.entry === undefined) {
    return new InputError(
      { file: evalFile, entry: `entry ${quote(item.id)}` },
      `its context ${quote(given)} (${absolute}): ${error.problem}`,
      'write the path relative to the folder of the eval set, or give the turns inline as "context": [{"role": "user", "content": "…"}, …]',
    );
  }
  const own = error.location.entry;
  return new InputError(
    { ...error.location, entry: own ? `${own}, ${entry}` : entry },
    error.problem,
    error.fix,
  );
}
