/**
 * The temp project's hand-laid `.git` (src/system/git.ts `initRepository`), checked through the
 * REAL `claude` against the simulated model: the folder is a repository root for the CLI (no
 * `.claude/` of a parent folder is listed; without the `.git` it is, so the check can fail), and
 * the request the model gets is byte-identical to the one from a `git init`ed folder (which has no
 * `.claude/settings.json` either). A stub's Skill call that runs to completion leaves no
 * `skillUsage` in the HOME, which it does without the project's deny rule (docs/home.md).
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runClaudeCommand } from '../../../src/agents/claude/command.js';
import { claudeArgs, claudeEnvironment } from '../../../src/agents/claude/launch.js';
import { createStubProject, type StubProject } from '../../../src/agents/process/stub-project.js';
import { type SimulatedModel, startSimulatedModel } from '../../../src/simulated/model.js';
import { findListingLine } from '../../../src/simulated/request.js';
import { repositoryRoot } from '../../../src/system/git.js';
import { CLAUDE_BIN, makeClaudeEnv } from '../../fakes/claude-env.js';

let root = '';
let model: SimulatedModel;
let env: Record<string, string>;
let cleanup: () => Promise<void>;
let home = '';

beforeAll(async () => {
  // realpath: the CLI reports resolved paths, and TMPDIR may sit behind a symlink.
  root = await realpath(await mkdtemp(join(tmpdir(), 'skilltrigger-isolation-')));
  // What a parent folder may hold, and a measured run must not see.
  await mkdir(join(root, '.claude', 'commands'), { recursive: true });
  await writeFile(
    join(root, '.claude', 'commands', 'parent-cmd.md'),
    '---\ndescription: parent command\n---\n\nx\n',
  );
  await mkdir(join(root, '.claude', 'skills', 'parent-skill'), { recursive: true });
  await writeFile(
    join(root, '.claude', 'skills', 'parent-skill', 'SKILL.md'),
    '---\nname: parent-skill\ndescription: parent skill\n---\n\nx\n',
  );
  model = await startSimulatedModel({
    recordBodies: true,
    chunkDelayMs: 0,
    script: (req) => (req.query.startsWith('load: ') ? { kind: 'skill' } : undefined),
  });
  const made = await makeClaudeEnv(model);
  home = made.home;
  env = claudeEnvironment(made.env, 0);
  cleanup = made.cleanup;
});

afterAll(async () => {
  await model?.close();
  await cleanup?.();
  await rm(root, { recursive: true, force: true });
});

/** One text-answered run in the project; the first request's body. */
async function firstRequest(project: StubProject): Promise<unknown> {
  const from = model.requests.length;
  const run = await runClaudeCommand(CLAUDE_BIN, claudeArgs('write a handoff note'), {
    env: { ...env, TMPDIR: project.tmpDir },
    cwd: project.dir,
    timeoutMs: 60_000,
  });
  expect(run.exitCode).toBe(0);
  const first = model.requests.slice(from).find((r) => r.method === 'POST' && r.turn === 1);
  expect(first?.body).toBeDefined();
  return first?.body;
}

/** The body with the per-project parts (its folder, the memory-folder slug, session ids) normalised. */
function normalised(body: unknown, project: StubProject): string {
  const { metadata: _, ...rest } = body as Record<string, unknown>;
  const base = join(project.dir, '..');
  return JSON.stringify(rest)
    .split(base)
    .join('<base>')
    .split(base.replace(/[/.]/g, '-'))
    .join('<slug>')
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>');
}

const spec = {
  layout: 'command',
  skillName: 'iso',
  description: 'Write HANDOFF.md for the next session',
} as const;

describe('the temp project is a repository root without a git process', () => {
  it('is a repository for git itself, rooted at the project', async () => {
    const project = await createStubProject({ ...spec, root });
    try {
      expect(await repositoryRoot(project.dir)).toBe(project.dir);
    } finally {
      await project.remove();
    }
  });

  it("keeps a parent folder's .claude out of the listing, which it is not without the .git", async () => {
    const project = await createStubProject({ ...spec, root });
    try {
      const body = await firstRequest(project);
      expect(findListingLine(body, project.stub.name)).toBeDefined();
      expect(findListingLine(body, 'parent-cmd')).toBeUndefined();
      expect(findListingLine(body, 'parent-skill')).toBeUndefined();

      await rm(join(project.dir, '.git'), { recursive: true });
      const without = await firstRequest(project);
      expect(findListingLine(without, 'parent-cmd')).toBeDefined();
    } finally {
      await project.remove();
    }
  });

  it('sends the model the same request as a git init-ed folder', async () => {
    const laid = await createStubProject({ ...spec, root });
    const inited = await createStubProject({ ...spec, root });
    try {
      // The same stub name in both, so only the folder differs.
      await rm(join(inited.dir, '.claude'), { recursive: true });
      await mkdir(join(inited.dir, '.claude', 'commands'), { recursive: true });
      await writeFile(
        join(inited.dir, '.claude', 'commands', `${laid.stub.name}.md`),
        await readFile(laid.stub.filePath),
      );
      await rm(join(inited.dir, '.git'), { recursive: true });
      execFileSync('git', ['init', '-q', '--initial-branch=master'], { cwd: inited.dir });
      const a = normalised(await firstRequest(laid), laid);
      const b = normalised(await firstRequest(inited), inited);
      expect(a).toContain('Is a git repository: true');
      expect(a).toBe(b);
    } finally {
      await laid.remove();
      await inited.remove();
    }
  });
});

describe("the temp project denies the stubs' Skill calls", () => {
  /** One run left to finish (no kill at the decision); the HOME's `skillUsage` after it. */
  async function usageAfterLoad(project: StubProject, query: string): Promise<unknown> {
    const run = await runClaudeCommand(CLAUDE_BIN, claudeArgs(query), {
      env: { ...env, TMPDIR: project.tmpDir },
      cwd: project.dir,
      timeoutMs: 60_000,
    });
    expect(run.exitCode).toBe(0);
    const config = JSON.parse(await readFile(join(home, '.claude.json'), 'utf8')) as Record<string, unknown>;
    return config.skillUsage;
  }

  it('a completed Skill call of the stub writes no skillUsage; without the rule it does', async () => {
    const project = await createStubProject({
      ...spec,
      siblings: [{ skillName: 'pdf', description: 'Fill PDF forms' }],
      root,
    });
    try {
      const rule = JSON.parse(await readFile(join(project.dir, '.claude', 'settings.json'), 'utf8'));
      expect(rule).toEqual({
        permissions: { deny: [`Skill(${project.stub.name})`, `Skill(${project.siblings[0]?.name})`] },
      });
      const from = model.requests.length;
      expect(await usageAfterLoad(project, 'load: the handoff note')).toBeUndefined();
      // The call was streamed (the decision's evidence) and then refused by the rule.
      const followUp = model.requests.slice(from).find((r) => r.turn === 2);
      expect(JSON.stringify(followUp?.body)).toContain('Skill execution blocked by permission rules');

      await rm(join(project.dir, '.claude', 'settings.json'));
      expect(await usageAfterLoad(project, 'load: the handoff note again')).toEqual({
        [project.stub.name]: expect.objectContaining({ usageCount: 1 }),
      });
    } finally {
      await project.remove();
    }
  });
});
