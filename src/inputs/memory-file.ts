/**
 * Reading `--memory` files (docs/cli.md "Memory files"): each a regular, non-empty UTF-8 file, all
 * of them within `MEMORY_MAX_BYTES` together. Every defect of every file is refused together,
 * naming the file and the fix, before anything is spent.
 */
import { InputError, InputErrors, SkilltriggerError } from '../errors.js';
import { errorCode } from '../guards.js';
import { readInputFile } from '../system/input-file.js';
import { MEMORY_MAX_BYTES, type MemoryFile } from './memory.js';
import { firstInvalidUtf8 } from './utf8.js';

const FIX = 'pass a project instructions file, such as your CLAUDE.md or AGENTS.md';

/** One file's text, or its defect. */
async function readOne(file: string): Promise<MemoryFile | InputError> {
  let bytes: Buffer;
  try {
    bytes = await readInputFile(file, 'a memory file');
  } catch (error) {
    if (error instanceof InputError) return error;
    if (error instanceof SkilltriggerError) throw error;
    const code = errorCode(error) ?? String(error);
    const problem =
      code === 'ENOENT'
        ? 'the memory file does not exist'
        : code === 'EISDIR'
          ? 'is a folder, not a memory file'
          : `cannot read the memory file (${code})`;
    return new InputError({ file }, `--memory: ${problem}`, FIX);
  }
  const bad = firstInvalidUtf8(bytes);
  if (bad !== undefined)
    return new InputError(
      { file },
      `--memory: is not UTF-8 (byte ${bad} is not valid)`,
      'save the file as UTF-8',
    );
  if (bytes.toString('utf8').trim() === '')
    return new InputError({ file }, '--memory: the memory file is empty', `${FIX}, or drop this --memory`);
  return { file, text: bytes.toString('utf8') };
}

/**
 * The files in order, read and checked; throws every defect together (exit 1). `each`: the files go
 * to different agents (the Action's `memory: auto`), so each alone must keep within the limit.
 */
export async function loadMemoryFiles(
  files: readonly string[],
  limit: 'together' | 'each' = 'together',
): Promise<MemoryFile[]> {
  const read = await Promise.all(files.map(readOne));
  const errors = read.filter((r): r is InputError => r instanceof InputError);
  if (errors.length > 0) throw new InputErrors(errors);
  const memory = read as MemoryFile[];
  const groups = limit === 'each' ? memory.map((m) => [m]) : [memory];
  const over = groups.map(tooBig).filter((e): e is InputError => e !== undefined);
  if (over.length > 0) throw new InputErrors(over);
  return memory;
}

/** The defect of files that hold more than `MEMORY_MAX_BYTES` together, if they do. */
function tooBig(files: readonly MemoryFile[]): InputError | undefined {
  const bytes = files.reduce((sum, m) => sum + Buffer.byteLength(m.text, 'utf8'), 0);
  if (bytes <= MEMORY_MAX_BYTES) return undefined;
  return new InputError(
    { file: files.map((f) => f.file).join(', ') },
    `--memory: ${bytes.toLocaleString('en-US')} bytes of memory${files.length === 1 ? '' : ' together'}, over the ${MEMORY_MAX_BYTES.toLocaleString('en-US')} bytes Codex reads of a project's AGENTS.md (it drops the rest without a word)`,
    'keep the instructions the skill is routed by and cut the rest, or pass fewer files',
  );
}
