import { randomBytes } from 'node:crypto';
import { link, mkdir, open, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { InputError } from '../errors.js';
import { errorCode } from '../guards.js';

/**
 * The files the author's commands write besides reports: `init`'s eval set (a new file, never an
 * overwrite) and `improve --write`'s SKILL.md (replaced whole). Both are written in full to a temp
 * name in the same folder first, so a reader never sees half a file.
 */

async function writeTemp(path: string, text: string, mode?: number): Promise<void> {
  const handle = await open(path, 'wx', mode);
  try {
    await handle.writeFile(text, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
}

function tempName(path: string): string {
  return join(dirname(path), `.${basename(path)}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`);
}

/** The fix for a file that is in the way. */
export const EXISTS_FIX =
  'choose another file with --out, or move the existing one away (it is never overwritten)';

/** Creates `path` (and its folder) holding `text`; refuses with exit 1 when the name is taken. */
export async function writeNewFile(path: string, text: string): Promise<void> {
  const folder = dirname(path);
  try {
    await mkdir(folder, { recursive: true });
  } catch (error) {
    throw new InputError(
      { file: folder },
      `cannot create the folder (${errorCode(error) ?? 'error'})`,
      'choose a writable place with --out',
    );
  }
  const temp = tempName(path);
  try {
    await writeTemp(temp, text);
    // A hard link claims the name only if it is free: never an overwrite, even in a race.
    await link(temp, path);
  } catch (error) {
    const code = errorCode(error);
    if (code === 'EEXIST') throw new InputError({ file: path }, 'already exists', EXISTS_FIX);
    if (code === undefined) throw error;
    throw new InputError({ file: path }, `cannot be written (${code})`, 'choose a writable place with --out');
  } finally {
    await unlink(temp).catch(() => undefined);
  }
}

/** Replaces `path` with `text` in one rename, keeping the file's permission bits. */
export async function replaceFile(path: string, text: string): Promise<void> {
  let mode: number | undefined;
  try {
    mode = (await stat(path)).mode & 0o7777;
  } catch {
    mode = undefined;
  }
  const temp = tempName(path);
  try {
    await writeTemp(temp, text, mode);
    await rename(temp, path);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    const code = errorCode(error);
    if (code === undefined) throw error;
    throw new InputError(
      { file: path },
      `cannot be rewritten (${code})`,
      'check the file and its folder are writable',
    );
  }
}
