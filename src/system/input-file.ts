import { constants, type Stats } from 'node:fs';
import { access, open, stat } from 'node:fs/promises';
import { InputError } from '../errors.js';

/**
 * Reading an input file the user named (SKILL.md, an eval set, a report, a price table), and
 * nothing that only looks like one. A named pipe is the trap: `open(2)` on a FIFO waits for a
 * writer, and Node does that wait on a worker thread, so the main thread is free but the read never
 * ends, an aborted run has nothing to abort, and `process.exit` itself waits for the stuck worker:
 * only SIGKILL ended such a process. So the file's type is checked before it is opened (`stat`
 * follows symlinks), and it is opened non-blocking and checked again on the open handle, for a
 * file swapped between the two calls. A device (`/dev/zero`, a terminal) would be read forever or
 * wait for typing, and a socket cannot be opened: they are refused the same way.
 */

/** What a file that is not a regular file is, in words, or undefined for a regular file. */
export function nonRegularKind(info: Stats): string | undefined {
  if (info.isFile()) return undefined;
  if (info.isDirectory()) return 'a folder';
  if (info.isFIFO()) return 'a named pipe (FIFO)';
  if (info.isSocket()) return 'a socket';
  if (info.isCharacterDevice() || info.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

/** Why each kind is refused, in the message. */
const WHY: Record<string, string> = {
  'a named pipe (FIFO)': 'reading a pipe waits for a writer, for ever if none comes',
  'a device': 'a device can be read for ever, or wait for typing',
  'a socket': 'a socket cannot be read as a file',
};

/**
 * A folder keeps the `EISDIR` error `readFile` gives, so each caller's own "is a folder, not …"
 * message stays; the other kinds become an input error naming the file and the fix.
 */
function refuse(file: string, kind: string, what: string): never {
  if (kind === 'a folder') {
    throw Object.assign(new Error(`EISDIR: illegal operation on a directory, read '${file}'`), {
      code: 'EISDIR',
    });
  }
  throw new InputError(
    { file },
    `is ${kind}, not a regular file; skilltrigger reads ${what} only from a regular file (${WHY[kind] ?? 'it may never end'})`,
    `save ${what} to a file and pass the path of that file`,
  );
}

/**
 * The bytes of `file`, a regular file after following symlinks. Errors of the filesystem
 * (`ENOENT`, `EACCES`, `EISDIR` for a folder, …) are thrown as Node gives them, for the caller to
 * word; a pipe, device or socket is an `InputError` saying `what` must be a regular file.
 */
export async function readInputFile(file: string, what: string): Promise<Buffer> {
  const kind = nonRegularKind(await stat(file));
  if (kind !== undefined) refuse(file, kind, what);
  // O_NONBLOCK: if a pipe took the file's place since the stat, opening it returns at once
  // instead of waiting for a writer; on a regular file the flag changes nothing.
  const handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const swapped = nonRegularKind(await handle.stat());
    if (swapped !== undefined) refuse(file, swapped, what);
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

/** The same, as UTF-8 text (a bad byte becomes U+FFFD: callers that must refuse one read the bytes). */
export async function readInputText(file: string, what: string): Promise<string> {
  return (await readInputFile(file, what)).toString('utf8');
}

/** Whether a file or folder exists (read-only). */
export async function exists(file: string): Promise<boolean> {
  try {
    await access(file);
    return true;
  } catch {
    return false;
  }
}
