/**
 * The temp project of one Codex run: a git root holding one stub skill at
 * `.agents/skills/<stub>/SKILL.md` (where Codex finds project skills), beside the run's throwaway
 * CODEX_HOME and TMPDIR. All three live in one `skilltrigger-*` folder, removed together, so a run
 * leaves nothing behind (docs/codex.md "What a run writes").
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
import type { CodexSiblingIdentity, CodexStubIdentity } from './decision.js';
import { codexFacts } from './facts.js';
import type { CodexRunFolders } from './launch.js';
import { codexListedDescription } from './listing.js';

export interface CodexStubSpec {
  skillName: string;
  /** The description under test, as the real SKILL.md holds it; the stub lists what Codex lists. */
  description: string;
  siblings?: Array<{ skillName: string; description: string }>;
  /** Where the temp folder goes; default the OS temp dir. */
  root?: string;
  /**
   * `run --roster`: the crowd's skills, laid out in a HOME of the run's own (`~/.agents/skills`,
   * where the listing probe puts them too), which the run is started with (docs/roster.md).
   */
  crowd?: ReadonlyArray<{ folder: string; text: string }>;
  /** `run --memory`: the project's AGENTS.md (docs/codex.md "Memory files"). */
  memory?: string;
}

export interface CodexStubProject extends CodexRunFolders {
  /** The temp folder holding the project, CODEX_HOME and TMPDIR. */
  base: string;
  dir: string;
  stub: CodexStubIdentity;
  siblings: CodexSiblingIdentity[];
  remove(): Promise<void>;
}

/** Every live Codex temp folder, so an interrupt can remove them even mid-run. */
const live = new Set<string>();

export async function removeAllCodexProjects(): Promise<void> {
  await Promise.all([...live].map((dir) => rm(dir, { recursive: true, force: true })));
  live.clear();
}

/** The stub's SKILL.md: its random name and the listed description, nothing Codex would re-read. */
export function codexStubText(name: string, description: string): string {
  return `---\nname: ${name}\ndescription: ${yamlString(codexListedDescription(description))}\n---\n\nThis stub stands in for the skill under test.\n`;
}

async function writeStub(dir: string, skillName: string, description: string): Promise<CodexStubIdentity> {
  const name = `${skillName}-stub-${randomBytes(4).toString('hex')}`;
  const folder = path.join(dir, '.agents', 'skills', name);
  await mkdir(folder);
  const file = path.join(folder, 'SKILL.md');
  await writeFile(file, codexStubText(name, description));
  const real = await realpath(file);
  return {
    name,
    filePath: file,
    projectDir: dir,
    listedFile: `${name}/SKILL.md`,
    ...(real === file ? {} : { aliases: [real] }),
  };
}

/** The run's HOME holding the crowd's skills in `~/.agents/skills`, inside its temp folder. */
async function writeCrowdHome(base: string, crowd: NonNullable<CodexStubSpec['crowd']>): Promise<string> {
  const home = path.join(base, 'home');
  for (const skill of crowd) {
    const folder = path.join(home, '.agents', 'skills', skill.folder);
    await mkdir(folder, { recursive: true });
    await writeFile(path.join(folder, 'SKILL.md'), skill.text);
  }
  return home;
}

export async function createCodexStubProject(spec: CodexStubSpec): Promise<CodexStubProject> {
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
    // Retries: a sandboxed command Codex started outside the run's process group may still be
    // closing its files in the folder.
    await rm(base, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
    await removeTempFolder(base);
    live.delete(base);
  };
  try {
    const dir = path.join(base, 'project');
    const codexHome = path.join(base, 'codex-home');
    const tmpDir = path.join(base, 'tmp');
    for (const folder of [dir, codexHome, tmpDir]) await mkdir(folder);
    await initRepository(dir);
    await writeProjectMemory(
      dir,
      spec.memory === undefined ? undefined : { file: codexFacts.memoryFile, text: spec.memory },
    );
    await mkdir(path.join(dir, '.agents'));
    await mkdir(path.join(dir, '.agents', 'skills'));
    const stub = await writeStub(dir, spec.skillName, spec.description);
    const siblings: CodexSiblingIdentity[] = [];
    for (const sibling of spec.siblings ?? []) {
      siblings.push({
        ...(await writeStub(dir, sibling.skillName, sibling.description)),
        skillName: sibling.skillName,
      });
    }
    const home = spec.crowd ? await writeCrowdHome(base, spec.crowd) : undefined;
    return { base, dir, codexHome, tmpDir, ...(home ? { home } : {}), stub, siblings, remove };
  } catch (error) {
    await remove();
    throw new StubProjectError(root, error instanceof Error ? error.message : String(error));
  }
}
