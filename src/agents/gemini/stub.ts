/**
 * The temp folder of one Gemini run: a git root holding one stub skill at
 * `.agents/skills/<stub>/SKILL.md` (a project folder Gemini CLI reads skills from), beside the run's
 * throwaway GEMINI_CLI_HOME (its settings.json and policy written here) and TMPDIR. All three live in
 * one `skilltrigger-*` folder, removed together, so a run leaves nothing behind (docs/gemini.md
 * "What a run writes").
 */
import { randomBytes } from 'node:crypto';
import { mkdir, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { initRepository } from '../../system/git.js';
import {
  createTempFolder,
  removeTempFolder,
  StubProjectError,
  writeProjectMemory,
  yamlString,
} from '../process/stub-project.js';
import type { GeminiSiblingIdentity, GeminiStubIdentity } from './decision.js';
import { geminiFacts } from './facts.js';
import { type GeminiRunFolders, geminiPolicy, geminiSettings } from './launch.js';

export interface GeminiStubSpec {
  skillName: string;
  /** The description under test, as skilltrigger's loader read it; Gemini lists it unchanged. */
  description: string;
  siblings?: Array<{ skillName: string; description: string }>;
  /** Where the temp folder goes; default the OS temp dir. */
  root?: string;
  /** `run --memory`: the project's GEMINI.md (docs/gemini.md "Memory files"). */
  memory?: string;
}

export interface GeminiStubProject extends GeminiRunFolders {
  /** The temp folder holding the project, the home and TMPDIR. */
  base: string;
  dir: string;
  stub: GeminiStubIdentity;
  siblings: GeminiSiblingIdentity[];
  remove(): Promise<void>;
}

/** Every live Gemini temp folder, so an interrupt can remove them even mid-run. */
const live = new Set<string>();

export async function removeAllGeminiProjects(): Promise<void> {
  await Promise.all([...live].map((dir) => rm(dir, { recursive: true, force: true })));
  live.clear();
}

/**
 * The stub's SKILL.md: its random name and the description as one YAML double-quoted scalar, which
 * Gemini reads back unchanged (__tests__/agents/gemini/listing-parity.e2e.test.ts).
 */
export function geminiStubText(name: string, description: string): string {
  return `---\nname: ${name}\ndescription: ${yamlString(description)}\n---\n\nThis stub stands in for the skill under test.\n`;
}

async function writeStub(dir: string, skillName: string, description: string): Promise<GeminiStubIdentity> {
  const name = `${skillName}-stub-${randomBytes(4).toString('hex')}`;
  const folder = path.join(dir, '.agents', 'skills', name);
  await mkdir(folder, { recursive: true });
  const file = path.join(folder, 'SKILL.md');
  await writeFile(file, geminiStubText(name, description));
  const real = await realpath(file);
  return { name, filePath: file, ...(real === file ? {} : { aliases: [real] }) };
}

/** The throwaway GEMINI_CLI_HOME: settings.json and the policy under `<home>/.gemini`. */
export async function writeGeminiHome(home: string): Promise<void> {
  const gemini = path.join(home, '.gemini');
  await mkdir(path.join(gemini, 'policies'), { recursive: true });
  await writeFile(path.join(gemini, 'settings.json'), geminiSettings());
  await writeFile(path.join(gemini, 'policies', 'skilltrigger.toml'), geminiPolicy());
}

export async function createGeminiStubProject(spec: GeminiStubSpec): Promise<GeminiStubProject> {
  const root = spec.root ?? os.tmpdir();
  let base: string;
  try {
    // With this process's owner file: a SIGKILLed skilltrigger's folder is swept by the next command.
    base = await createTempFolder(root);
  } catch (error) {
    throw new StubProjectError(root, error instanceof Error ? error.message : String(error));
  }
  live.add(base);
  const remove = async (): Promise<void> => {
    await rm(base, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
    await removeTempFolder(base);
    live.delete(base);
  };
  try {
    const dir = path.join(base, 'project');
    const home = path.join(base, 'home');
    const tmpDir = path.join(base, 'tmp');
    for (const folder of [dir, home, tmpDir]) await mkdir(folder);
    await writeGeminiHome(home);
    await initRepository(dir);
    await writeProjectMemory(
      dir,
      spec.memory === undefined ? undefined : { file: geminiFacts.memoryFile, text: spec.memory },
    );
    const stub = await writeStub(dir, spec.skillName, spec.description);
    const siblings: GeminiSiblingIdentity[] = [];
    for (const sibling of spec.siblings ?? []) {
      siblings.push({
        ...(await writeStub(dir, sibling.skillName, sibling.description)),
        skillName: sibling.skillName,
      });
    }
    return { base, dir, home, tmpDir, stub, siblings, remove };
  } catch (error) {
    await remove();
    throw new StubProjectError(root, error instanceof Error ? error.message : String(error));
  }
}
