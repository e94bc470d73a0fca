import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { errorCode } from '../../guards.js';
import { firstLine } from '../../program-output.js';
import { type RememberedToggle, togglesFileSchema } from '../../schemas/toggles.js';

/**
 * The toggles file remembers the plugins skilltrigger told the user to disable, so every later
 * preflight and the end of every run can remind them to turn those back on. It lives in the
 * results folder, never under `~/.claude`: skilltrigger does not change the user's Claude setup.
 */
export const TOGGLES_FILE = '.skilltrigger-toggles';

export function togglesPath(out: string): string {
  return path.join(out, TOGGLES_FILE);
}

/** The remembered toggles; a missing file is none, an unreadable one is none plus a `problem`. */
export async function readToggles(out: string): Promise<{ toggles: RememberedToggle[]; problem?: string }> {
  let text: string;
  try {
    text = await readFile(togglesPath(out), 'utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return { toggles: [] };
    return { toggles: [], problem: `cannot read ${togglesPath(out)}: ${(error as Error).message}` };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { toggles: [], problem: `${togglesPath(out)} is not JSON (it starts "${firstLine(text, 60)}")` };
  }
  const parsed = togglesFileSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      toggles: [],
      problem: `${togglesPath(out)} is not a toggles file (${issue ? `${issue.path.join('.') || 'top level'}: ${issue.message}` : 'invalid'})`,
    };
  }
  return { toggles: parsed.data.toggles };
}

/** Write (temp file + rename, so a reader never sees half a file); an empty list removes the file. */
export async function writeToggles(out: string, toggles: RememberedToggle[]): Promise<void> {
  const file = togglesPath(out);
  if (toggles.length === 0) {
    await rm(file, { force: true });
    return;
  }
  await mkdir(out, { recursive: true });
  const body = togglesFileSchema.parse({ schema: 'skilltrigger/toggles', version: 1, toggles });
  const temp = `${file}.${process.pid}.${Date.now()}.tmp`;
  try {
    await writeFile(temp, `${JSON.stringify(body, null, 2)}\n`);
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}
