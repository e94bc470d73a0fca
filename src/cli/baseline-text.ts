import { readFile, stat } from 'node:fs/promises';
import { InputError, UsageError } from '../errors.js';

/**
 * The baseline text of a paired `run`: `--baseline-description-file <file>` reads a file;
 * `--baseline-description <text|file>` reads the file of that name when one exists, else takes the
 * value as the text. A value that looks like a file name but names none is refused, so a typo is
 * never measured as a 15-byte description.
 */

/** Where a side's text came from (the report's `description.from`, the terminal's line). */
export type BaselineFrom = 'text' | 'file';

export interface BaselineText {
  text: string;
  from: BaselineFrom;
  /** The file it was read from (for the terminal; never in a report). */
  file?: string;
}

/**
 * Whether a value that names no file was meant as one: one word holding a `/` or `\`, or a value
 * ending in `.md` or `.txt`. A description with spaces may hold a `/` ("PDF/DOCX files"), so a slash
 * counts only in a single word.
 */
export function looksLikePath(value: string): boolean {
  const v = value.trim();
  if (v.includes('\n')) return false;
  return (!/\s/.test(v) && /[\\/]/.test(v)) || /\.(?:md|txt)$/i.test(v);
}

async function kindOf(file: string): Promise<'file' | 'folder' | 'none'> {
  try {
    const s = await stat(file);
    return s.isDirectory() ? 'folder' : 'file';
  } catch {
    return 'none';
  }
}

export async function baselineText(
  value: string | undefined,
  file: string | undefined,
): Promise<BaselineText | undefined> {
  if (value !== undefined && file !== undefined)
    throw new UsageError(
      '--baseline-description and --baseline-description-file both name the baseline; run takes one. Fix: keep one of them',
    );
  if (file !== undefined) {
    const kind = await kindOf(file);
    if (kind !== 'file')
      throw new InputError(
        { file },
        kind === 'folder'
          ? 'is a folder, not a file (--baseline-description-file)'
          : 'does not exist (--baseline-description-file)',
        'correct the path, or pass the text itself with --baseline-description "<text>"',
      );
    return { text: (await readFile(file, 'utf8')).trim(), from: 'file', file };
  }
  if (value === undefined) return undefined;
  const kind = await kindOf(value);
  if (kind === 'file') return { text: (await readFile(value, 'utf8')).trim(), from: 'file', file: value };
  if (kind === 'folder' || looksLikePath(value))
    throw new UsageError(
      `--baseline-description: "${value}" looks like a file name, but ${kind === 'folder' ? 'it is a folder' : 'no such file exists'}; it would be measured as a text of ${Buffer.byteLength(value, 'utf8')} bytes. Fix: correct the path, or pass the file with --baseline-description-file <file> (a text that only looks like a file name goes in a file, passed the same way)`,
    );
  return { text: value, from: 'text' };
}

/** The terminal's line saying which the baseline was (stderr; it may name the file). */
export function baselineLine(baseline: BaselineText): string {
  const bytes = Buffer.byteLength(baseline.text, 'utf8');
  return baseline.from === 'file'
    ? `baseline: the text of the file ${baseline.file} (${bytes} bytes)`
    : `baseline: the text given to --baseline-description (${bytes} bytes), not a file`;
}
