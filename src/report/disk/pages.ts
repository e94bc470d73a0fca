import { randomBytes } from 'node:crypto';
import { link } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { ExitCode, SkilltriggerError } from '../../errors.js';
import { errorCode } from '../../guards.js';
import { claim, explainCode, removeQuietly, writeTemp } from '../../system/atomic-files.js';
import { exists } from '../../system/input-file.js';

/**
 * HTML pages of reports already on disk (`skilltrigger view`), written the way the reports are:
 * in full to a temporary name in the same folder, then claimed under the final name with a hard
 * link, so a reader never sees half a page and a page already there is never overwritten.
 */

/** `<name>.html` beside `<name>.json` (or beside a file of any other name, with `.html` added). */
export function pagePathFor(reportPath: string): string {
  return reportPath.endsWith('.json') ? `${reportPath.slice(0, -'.json'.length)}.html` : `${reportPath}.html`;
}

function stemOf(reportPath: string): string {
  const name = basename(reportPath);
  return name.endsWith('.json') ? name.slice(0, -'.json'.length) : name;
}

/** The page of `compare a b`: `<a>-vs-<b>.html` in the candidate's folder. */
export function comparePagePathFor(basePath: string, candPath: string): string {
  return join(dirname(candPath), `${stemOf(basePath)}-vs-${stemOf(candPath)}.html`);
}

/** A page that cannot be written (exit 1: a folder the user can fix). */
export class PageWriteError extends SkilltriggerError {
  constructor(
    readonly path: string,
    readonly code: string,
  ) {
    super(
      `cannot write the page ${path}: ${code} (${explainCode(code)}). Fix: make its folder writable, or copy the report somewhere writable and view it there`,
      ExitCode.input,
    );
  }
}

/** Writes the page `render` makes to `path` unless a file is there already. Returns whether it wrote it. */
export async function writePageIfMissing(path: string, render: () => string): Promise<boolean> {
  if (await exists(path)) return false;
  const temp = join(dirname(path), `${basename(path)}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    await writeTemp(temp, render());
    // False when another process wrote the page in the meantime: that page stands.
    return await claim(temp, path, link);
  } catch (error) {
    const code = errorCode(error);
    if (code === undefined || error instanceof SkilltriggerError) throw error;
    throw new PageWriteError(path, code);
  } finally {
    await removeQuietly(temp);
  }
}
