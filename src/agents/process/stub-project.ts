import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ExitCode, SkilltriggerError } from '../../errors.js';
import { errorCode } from '../../guards.js';
import { initRepository } from '../../system/git.js';
import type { StubIdentity } from '../runs.js';
import { writeOwner } from './temp-owner.js';

export type StubLayout = 'command' | 'skill';

export interface StubProject {
  dir: string;
  /**
   * A TMPDIR for this run alone, beside the project and removed with it: the CLI's socket and
   * file-watch probes go there, so a run killed at its decision leaves nothing in the user's temp
   * folder. The request the model gets is byte-identical with any TMPDIR (checked, docs/speed.md).
   */
  tmpDir: string;
  stub: StubIdentity;
  /** One stub per `StubSpec.siblings` entry, in the same order, with the skill it stands for. */
  siblings: Array<StubIdentity & { skillName: string }>;
  /** The run's own HOME beside the project, when the spec places one (`StubSpec.home`); removed with it. */
  home?: string;
  remove(): Promise<void>;
}

/**
 * A HOME of the run's own, laid out beside its project by the agent that needs one (`run --roster`
 * on Claude Code: the roster's crowd around the stub, src/agents/claude/roster-home.ts). `place`
 * gets the temp folder and the stub as the project holds it, writes the HOME and returns it with
 * the stub's identity where the HOME now holds it. One object per measurement, so a standby's
 * spec compares equal to its run's.
 */
export interface HomePlacement {
  place(
    base: string,
    stub: StubIdentity,
    text: { description: string; whenToUse?: string },
  ): Promise<{ home: string; stub: StubIdentity }>;
}

/** A competing skill installed beside the tested stub (`run --siblings`). */
export interface SiblingStub {
  /** The sibling skill's own `name`. */
  skillName: string;
  /** The sibling's listed text, as for the tested stub (description and when_to_use already joined). */
  description: string;
  whenToUse?: string;
}

export interface StubSpec {
  layout: StubLayout;
  skillName: string;
  description: string;
  whenToUse?: string;
  /** Competing skills, each written as a stub of its own in the same project, named as the tested stub is. */
  siblings?: SiblingStub[];
  /** Where temp projects go; default the OS temp dir. Must have no CLAUDE.md above it. */
  root?: string;
  /** A HOME of the run's own, beside the project (`HomePlacement`). */
  home?: HomePlacement;
  /** `run --memory`: the memory file written at the project's root, by its name (`CLAUDE.md`). */
  memory?: ProjectMemory;
}

/** A memory file at a temp project's root: its name as the agent reads it, and its text. */
export interface ProjectMemory {
  file: string;
  text: string;
}

/** Writes `memory` at the root of the project `dir` (nothing without one). */
export async function writeProjectMemory(dir: string, memory: ProjectMemory | undefined): Promise<void> {
  if (memory !== undefined) await writeFile(path.join(dir, memory.file), memory.text);
}

/**
 * The temporary project could not be made (a full or read-only temp folder). Nothing is
 * wrong with the run or the description: the machine cannot host a run at all.
 */
export class StubProjectError extends SkilltriggerError {
  constructor(
    readonly root: string,
    readonly reason: string,
  ) {
    super(
      `cannot create a temporary project in ${root}: ${reason}. Fix: free space there, or point TMPDIR at a writable folder`,
      ExitCode.input,
    );
  }
}

/** Every live temp project, so an interrupt can remove them even mid-run. */
const live = new Set<string>();

/** Remove every temp project still on disk (used on SIGINT/SIGTERM). */
export async function removeAllStubProjects(): Promise<void> {
  await Promise.all([...live].map((dir) => rm(dir, { recursive: true, force: true })));
  live.clear();
}

/**
 * A new `skilltrigger-*` folder in `root` with this process's owner file in it (temp-owner.ts: the
 * next command sweeps it if this process is SIGKILLed), tracked until `removeTempFolder` so an
 * interrupt removes it too. Every temp folder skilltrigger makes comes from here.
 */
export async function createTempFolder(root: string = os.tmpdir()): Promise<string> {
  const base = await mkdtemp(path.join(root, 'skilltrigger-'));
  live.add(base);
  try {
    await writeOwner(base);
  } catch (error) {
    await removeTempFolder(base);
    throw error;
  }
  return base;
}

/** Removes a folder made by `createTempFolder`, whatever is in it. */
export async function removeTempFolder(base: string): Promise<void> {
  await rm(base, { recursive: true, force: true });
  live.delete(base);
}

/**
 * The text as a YAML double-quoted scalar that Claude Code reads back unchanged (verified through
 * the real binary, __tests__/adapters/listing-parity.e2e.test.ts). JSON string syntax is valid YAML
 * and survives quotes, colons and `#`. Two hazards are escaped on top: Claude Code closes the
 * frontmatter at the first `---` anywhere, even inside a value (its splitter is
 * `/^---\s*\n([\s\S]*?)---\s*\n?/`), so every hyphen of a run of three or more becomes `\u002d`;
 * and the characters YAML may take as a line break or a BOM (U+0085, U+2028, U+2029, U+FEFF) are
 * written as escapes, so no reader folds them.
 */
export function yamlString(text: string): string {
  return JSON.stringify(text)
    .replace(/-{3,}/g, (run) => '\\u002d'.repeat(run.length))
    .replace(/[\u0085\u2028\u2029\ufeff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * The stub file's text. The description is the whole listed text (description, ` - ` and
 * when_to_use already joined, as Claude Code lists them), so nothing is left for the CLI to join or
 * re-read; no `---` run appears anywhere between the delimiters.
 */
export function stubFileText(
  layout: StubLayout,
  name: string,
  description: string,
  whenToUse?: string,
): string {
  const frontmatter = [
    '---',
    ...(layout === 'skill' ? [`name: ${name}`] : []),
    `description: ${yamlString(description)}`,
    ...(whenToUse ? [`when_to_use: ${yamlString(whenToUse)}`] : []),
    '---',
  ];
  return `${frontmatter.join('\n')}\n\nThis stub stands in for the skill under test. $ARGUMENTS\n`;
}

/**
 * A fresh project holding exactly one stub whose description is the text under test (docs/design.md).
 * An empty repository (laid out by hand, no git process: `initRepository`) makes it a repository
 * root, so the CLI does not pick up `.claude/` folders of parent directories (docs/claude-cli.md §2). The stub name carries 8 random hex so it cannot collide with
 * anything installed; `--stub skill` uses the real name because some CLIs only auto-load skills.
 */
export async function createStubProject(spec: StubSpec): Promise<StubProject> {
  const root = spec.root ?? os.tmpdir();
  let base: string;
  try {
    base = await createTempFolder(root);
  } catch (error) {
    throw new StubProjectError(root, describeFailure(error));
  }
  try {
    const dir = path.join(base, 'project');
    const tmpDir = path.join(base, 'tmp');
    await mkdir(dir);
    await mkdir(tmpDir);
    await initRepository(dir);
    await writeProjectMemory(dir, spec.memory);
    // `.claude` without `recursive`: if a cleanup job removed the temp folder meanwhile, this fails
    // instead of quietly making the folders again (a project without its .git, in a folder the
    // user's job meant to be gone).
    await mkdir(path.join(dir, '.claude'));
    await mkdir(path.join(dir, '.claude', spec.layout === 'command' ? 'commands' : 'skills'));
    const written = await writeStub(dir, spec.layout, spec.skillName, spec.description, spec.whenToUse);
    const placed = spec.home
      ? await spec.home.place(base, written, {
          description: spec.description,
          ...(spec.whenToUse ? { whenToUse: spec.whenToUse } : {}),
        })
      : undefined;
    const stub = placed?.stub ?? written;
    const siblings: StubProject['siblings'] = [];
    for (const sibling of spec.siblings ?? []) {
      const identity = await writeStub(
        dir,
        spec.layout,
        sibling.skillName,
        sibling.description,
        sibling.whenToUse,
      );
      siblings.push({ ...identity, skillName: sibling.skillName });
    }
    await denyStubExecution(dir, [stub.name, ...siblings.map((s) => s.name)]);
    return {
      dir,
      tmpDir,
      stub,
      siblings,
      ...(placed ? { home: placed.home } : {}),
      async remove() {
        // ENOTDIR: a folder above it is now a file, so nothing of the project is left to remove.
        await rm(base, { recursive: true, force: true }).catch((error: unknown) => {
          if (errorCode(error) !== 'ENOTDIR') throw error;
        });
        live.delete(base);
      },
    };
  } catch (error) {
    await removeTempFolder(base);
    throw new StubProjectError(root, describeFailure(error));
  }
}

/**
 * The project's `.claude/settings.json`: a deny rule for each stub's Skill call. Claude Code adds 1 to
 * `skillUsage[<name>]` in the user's `~/.claude.json` when a Skill call completes, which a run whose
 * kill at the decision comes late (a loaded machine, a `--late` watch) would let happen: a random stub
 * name left in the user's HOME, re-ranking its listing. The call is still streamed, so the decision
 * reads it as before, and the request the model is sent is byte-identical with the rule (checked on
 * 2.1.328; docs/home.md "Skill usage").
 */
async function denyStubExecution(dir: string, names: readonly string[]): Promise<void> {
  const settings = { permissions: { deny: names.map((name) => `Skill(${name})`) } };
  await writeFile(path.join(dir, '.claude', 'settings.json'), `${JSON.stringify(settings, null, 2)}\n`);
}

/** An empty project for the gates' and the author calls' claude commands; removed by `remove()`. */
export interface ScratchProject {
  dir: string;
  remove(): Promise<void>;
}

/**
 * A fresh repository root with no stub: the roster run sees what every measured run sees besides
 * the stub (user skills, plugins, built-ins), and `plugin list` reports the enabled state that
 * applies there rather than in the user's current folder (docs/claude-cli.md §7: `enabled`
 * depends on the cwd). Same prefix as the stub projects so leftovers are easy to spot.
 */
export async function createScratchProject(root: string = os.tmpdir()): Promise<ScratchProject> {
  const base = await createTempFolder(root);
  const dir = path.join(base, 'project');
  const remove = () => removeTempFolder(base);
  try {
    await mkdir(dir);
    await initRepository(dir);
  } catch (error) {
    await remove();
    throw error;
  }
  return { dir, remove };
}

/**
 * One stub file in the project: the command layout names it `<skill>-stub-<8 hex>` (random, so it
 * cannot collide with anything installed), the skill layout uses the skill's real name.
 */
async function writeStub(
  dir: string,
  layout: StubLayout,
  skillName: string,
  description: string,
  whenToUse: string | undefined,
): Promise<StubIdentity> {
  const name = layout === 'command' ? `${skillName}-stub-${randomBytes(4).toString('hex')}` : skillName;
  const file =
    layout === 'command'
      ? path.join(dir, '.claude', 'commands', `${name}.md`)
      : path.join(dir, '.claude', 'skills', name, 'SKILL.md');
  // Never `recursive`: should the temp folder vanish mid-creation (a cleanup job, a full disk),
  // a recursive mkdir would quietly re-create it, and every later run would go on in it.
  if (layout === 'skill') await mkdir(path.dirname(file));
  await writeFile(file, stubFileText(layout, name, description, whenToUse));
  const real = await realpath(file);
  return { name, filePath: file, projectDir: dir, ...(real === file ? {} : { aliases: [real] }) };
}

/** An OS error code (ENOSPC, EROFS, ENOENT) with its message, on one line. */
function describeFailure(error: unknown): string {
  const code = errorCode(error);
  const message = error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
  return `${code === undefined ? '' : `${code}: `}${message}`;
}
