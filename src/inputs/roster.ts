/**
 * `--roster <file|dir>`: a crowd of skills to list the stub among (docs/roster.md). A roster file
 * (`skilltrigger/roster`) holds each entry's kind, source, name, description and use record; a
 * folder of skill folders (each with a `SKILL.md`) is a roster too, every folder a user skill never
 * used. Read only; a defect names the file, the entry, what is wrong and the fix.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { AgentId } from '../agents/ids.js';
import type { CrowdMember } from '../agents/listing.js';
import { InputError } from '../errors.js';
import { rosterFileSchema } from '../schemas/roster-file.js';

/** One entry of the crowd (the agent-neutral shape the probes take). */
export type CrowdEntry = CrowdMember;

export interface Crowd {
  /** Where it came from: a roster file or a folder of skill folders. */
  from: 'file' | 'folder';
  /** The agent a roster file was written for; a folder serves any. */
  agent?: AgentId;
  entries: CrowdEntry[];
  /** SHA-256 of what was read (the file, or each folder's name and SKILL.md in order), for the report. */
  sha256: string;
}

const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

function checkName(file: string, entry: string, name: string): void {
  if (!SAFE_NAME.test(name) || name.length > 100)
    throw new InputError(
      { file, entry },
      `the name "${name.slice(0, 40)}" is not a plain folder or file name`,
      'use letters, digits, `.`, `_` and `-` only, at most 100 characters',
    );
}

async function folderCrowd(dir: string): Promise<Crowd> {
  const hash = createHash('sha256');
  const entries: CrowdEntry[] = [];
  for (const name of (await readdir(dir)).sort()) {
    const folder = path.join(dir, name);
    if (!(await stat(folder)).isDirectory()) continue;
    const text = await readFile(path.join(folder, 'SKILL.md'), 'utf8').catch(() => undefined);
    if (text === undefined) continue;
    checkName(dir, name, name);
    hash.update(`${name}\0${text}\0`);
    entries.push({ kind: 'skill', source: 'user', name, fileText: text });
  }
  if (entries.length === 0)
    throw new InputError(
      { file: dir },
      'this roster folder holds no skill folder with a SKILL.md',
      'point --roster at a folder of skill folders (`<name>/SKILL.md`), or at a roster file',
    );
  return { from: 'folder', entries, sha256: hash.digest('hex') };
}

async function fileCrowd(file: string): Promise<Crowd> {
  const text = await readFile(file, 'utf8');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new InputError(
      { file },
      'the roster is not valid JSON',
      'write it with `skilltrigger roster export`',
    );
  }
  const parsed = rosterFileSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.join('.') ?? '';
    throw new InputError(
      { file, ...(where === '' ? {} : { entry: where }) },
      `not a skilltrigger roster (${issue?.message ?? 'invalid'})`,
      'write it with `skilltrigger roster export`, or give a folder of skill folders',
    );
  }
  const roster = parsed.data;
  const entries = roster.entries.map((e, i): CrowdEntry => {
    const entry = `entries.${i}`;
    checkName(file, entry, e.name);
    if (e.description === undefined && e.chars === undefined)
      throw new InputError(
        { file, entry },
        'the entry has neither a description nor its length',
        'give `description` or `chars`',
      );
    const description = e.description ?? 'x'.repeat(e.chars ?? 0);
    return {
      kind: e.kind,
      source: e.source,
      name: e.name,
      description,
      ...(e.usage ? { usage: e.usage } : {}),
    };
  });
  return {
    from: 'file',
    agent: roster.agent,
    entries,
    sha256: createHash('sha256').update(text, 'utf8').digest('hex'),
  };
}

/** Reads `--roster`: a folder of skill folders, or a roster file. */
export async function loadRoster(target: string): Promise<Crowd> {
  const info = await stat(target).catch(() => undefined);
  if (info === undefined)
    throw new InputError(
      { file: target },
      'no such file or folder',
      'give a roster file or a folder of skill folders',
    );
  return info.isDirectory() ? folderCrowd(target) : fileCrowd(target);
}
