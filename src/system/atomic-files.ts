import { randomBytes } from 'node:crypto';
import { copyFile, mkdir, open, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { ExitCode, SkilltriggerError } from '../errors.js';
import { errorCode } from '../guards.js';

/**
 * Files put on disk whole: written in full to a temporary name in the same folder (synced), then
 * published under their final name — claimed with a hard link, which fails if the name is taken
 * (src/report/disk/folder.ts, src/report/disk/pages.ts), or renamed over an older file
 * where the user named one fixed path (`writeRenderingFile`). A reader never sees half a file.
 * With the OS's error codes in words a user can act on.
 */

/** An OS error code (`EROFS`, …) in words a user can act on. */
export function explainCode(code: string): string {
  switch (code) {
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EROFS':
      return 'read-only file system';
    case 'ENOSPC':
      return 'no space left on the device';
    case 'EDQUOT':
      return 'disk quota exceeded';
    case 'ENOTDIR':
      return 'part of the path is a file, not a folder';
    case 'EEXIST':
      return 'the path exists and is not a folder';
    case 'ENAMETOOLONG':
      return 'the path is too long';
    default:
      return 'the operating system refused';
  }
}

/**
 * `mkdir -p`, with the OS's real reason when it fails. Node's recursive mkdir says ENOENT when a
 * folder cannot be made on a read-only filesystem; making the first missing folder on its own
 * gives the reason the user must fix (EROFS, EACCES).
 */
export async function makeFolder(dir: string): Promise<void> {
  try {
    await mkdir(dir, { recursive: true });
  } catch (error) {
    if (errorCode(error) !== 'ENOENT') throw error;
    let missing = dir;
    while (
      dirname(missing) !== missing &&
      errorCode(await stat(dirname(missing)).catch((e) => e)) === 'ENOENT'
    ) {
      missing = dirname(missing);
    }
    await mkdir(missing);
    await mkdir(dir, { recursive: true });
  }
}

export async function writeTemp(path: string, data: string): Promise<void> {
  const handle = await open(path, 'wx');
  try {
    await handle.writeFile(data, 'utf8');
    // On disk before its name is published: a crash after the link must not leave an empty report.
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export async function removeQuietly(path: string): Promise<void> {
  await unlink(path).catch(() => undefined);
}

/** `fs.link`'s shape: what claims a name (tests replace it to act out a filesystem without hard links). */
export type LinkFile = (existingPath: string, newPath: string) => Promise<void>;

/** Error codes with which `link` says the filesystem has no hard links, rather than that the name is taken. */
const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS']);

/**
 * Publishes `temp` as `target` unless `target` exists. Returns false when the name is taken.
 * Without hard links: an exclusive create reserves the name, then a copy of the temp file is
 * renamed over the reservation (a reader may see it empty for a moment, never partly written).
 */
export async function claim(temp: string, target: string, linkFile: LinkFile): Promise<boolean> {
  try {
    await linkFile(temp, target);
    return true;
  } catch (error) {
    const code = errorCode(error);
    if (code === 'EEXIST') return false;
    if (code === undefined || !NO_HARD_LINKS.has(code)) throw error;
  }
  try {
    await (await open(target, 'wx')).close();
  } catch (error) {
    if (errorCode(error) === 'EEXIST') return false;
    throw error;
  }
  const copy = `${temp}-copy`;
  try {
    await copyFile(temp, copy);
    await rename(copy, target);
  } catch (error) {
    await removeQuietly(copy);
    await removeQuietly(target);
    throw error;
  }
  return true;
}

/**
 * Replaces `file` with `text`, never half-written: in full to a temporary name beside it (a dot
 * file, so a reader listing the folder does not take it for the real one), then renamed over it.
 * The temporary file is removed when anything fails; the error is the OS's.
 */
export async function replaceFile(file: string, text: string): Promise<void> {
  const temp = join(dirname(file), `.${basename(file)}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    await writeTemp(temp, text);
    await rename(temp, file);
  } catch (error) {
    await removeQuietly(temp);
    throw error;
  }
}

/**
 * Writes a rendering of the report (the JUnit XML of `run --junit <file>`) to the exact path the
 * user named, creating its folder. Unlike a report it replaces an older file of that name (CI
 * reads one fixed path), but never half-written: in full to a temporary name beside it, then
 * renamed over it. Called after the report is written, so a refused path loses no measurement.
 */
export async function writeRenderingFile(
  file: string,
  text: string,
  what: string,
  flag: string,
): Promise<void> {
  try {
    await makeFolder(dirname(file));
    await replaceFile(file, text);
  } catch (error) {
    const code = errorCode(error);
    if (code === undefined) throw error;
    throw new SkilltriggerError(
      `cannot write the ${what} to ${file}: ${code} (${code === 'EISDIR' ? 'the path is a folder' : explainCode(code)}). The report itself was written. Fix: name a writable file with ${flag}`,
      ExitCode.input,
    );
  }
}
