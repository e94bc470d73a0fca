import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type ProbeResult, probeListing, probeListings } from '../../src/agents/claude/listing-probe.js';
import { claudeEnvironment, runOnce } from '../../src/agents/claude/run-once.js';
import { createStubProject, type StubLayout } from '../../src/agents/process/stub-project.js';
import { stubFieldsFor } from '../../src/inputs/listing.js';
import { type SimulatedModel, startSimulatedModel } from '../../src/simulated/model.js';
import { findListingLine } from '../../src/simulated/request.js';
import { CLAUDE_BIN, makeClaudeEnv } from '../fakes/claude-env.js';

/**
 * The parity harness: Claude Code's listing of real SKILL.md files (the listing probe, through the
 * real binary), and the listing of skilltrigger's own stubs for those texts, read from the request
 * body the simulated model receives in a real measured run (createStubProject + runOnce).
 *
 * Each start of the CLI lists a whole batch: the real files side by side in one probe project, the
 * stubs side by side in one measured run's project (the tested stub and its siblings, as
 * `run --siblings` installs them). One start lists an entry exactly as a start of its own would,
 * except that the listing shares one size budget (docs/listing-parity.md, "Several files in one
 * start"): so a batch holds at most BATCH_CHARS characters of text, far under the budget of even a
 * 200k-context model (1 % of the window, 4 characters a token: 8,000), and an entry a batch lists
 * bare or leaves out is asked again alone, so every answer is the one a start of its own gives.
 */
export interface ParityHarness {
  /** How Claude Code lists each SKILL.md text, in order. */
  listReal(texts: readonly string[]): Promise<ProbeResult[]>;
  /** How Claude Code lists skilltrigger's stub written for each listed text, in a measured run. */
  listStubs(listed: readonly string[], layout: StubLayout): Promise<Array<string | undefined>>;
  close(): Promise<void>;
}

const BATCH_CHARS = 4_000;

/** The items cut into runs of consecutive items whose sizes sum to at most BATCH_CHARS (one item may exceed it alone). */
function batches<T>(items: readonly T[], size: (item: T) => number): T[][] {
  const out: T[][] = [];
  let current: T[] = [];
  let chars = 0;
  for (const item of items) {
    if (current.length > 0 && chars + size(item) > BATCH_CHARS) {
      out.push(current);
      current = [];
      chars = 0;
    }
    current.push(item);
    chars += size(item);
  }
  if (current.length > 0) out.push(current);
  return out;
}

/** Whether a batch's answer may be the shared budget's doing (listed bare or left out), so only an answer alone counts. */
const maybeBudget = (description: string | undefined) => description === undefined || description === '';

let counter = 0;

export async function startParityHarness(): Promise<ParityHarness> {
  const model: SimulatedModel = await startSimulatedModel({ recordBodies: true, isStub: () => false });
  const claude = await makeClaudeEnv(model);
  const root = await mkdtemp(path.join(tmpdir(), 'skilltrigger-parity-'));
  const probe = { claudeBin: CLAUDE_BIN, env: process.env, root };

  /** One measured run with a stub per listed text; each stub's line as the model received it. */
  async function stubRun(listed: readonly string[], layout: StubLayout): Promise<Array<string | undefined>> {
    const names = listed.map(() => `parity-${process.pid}-${++counter}`);
    const query = `parity probe ${names[0]}`;
    const [first, ...rest] = listed.map((text, i) => ({ skillName: names[i] ?? '', ...stubFieldsFor(text) }));
    if (first === undefined) return [];
    const stub = { layout, ...first, siblings: rest, root };
    const project = await createStubProject(stub);
    const stubNames = [project.stub.name, ...project.siblings.map((s) => s.name)];
    await runOnce(
      { query, stub, timeoutMs: 60_000, claudeBin: CLAUDE_BIN, env: claudeEnvironment(claude.env, 0) },
      undefined,
      undefined,
      { project: Promise.resolve(project) },
    );
    const request = model.requests.find((r) => r.view?.query === query && r.body !== undefined);
    return stubNames.map((name) =>
      request === undefined ? undefined : findListingLine(request.body, name)?.description,
    );
  }

  return {
    async listReal(texts) {
      const out: ProbeResult[] = [];
      for (const batch of batches(texts, (text) => text.length)) {
        const results = await probeListings(
          batch.map((text) => ({ layout: 'skill' as const, text })),
          probe,
        );
        for (const [i, result] of results.entries()) {
          const text = batch[i] ?? '';
          const again =
            batch.length > 1 &&
            result.kind !== 'failed' &&
            maybeBudget(result.kind === 'listed' ? result.description : undefined);
          out.push(again ? await probeListing({ layout: 'skill', text }, probe) : result);
        }
      }
      return out;
    },
    async listStubs(listed, layout) {
      const out: Array<string | undefined> = [];
      for (const batch of batches(listed, (text) => text.length)) {
        const results = await stubRun(batch, layout);
        for (const [i, result] of results.entries()) {
          out.push(
            maybeBudget(result) && batch.length > 1 ? (await stubRun([batch[i] ?? ''], layout))[0] : result,
          );
        }
      }
      return out;
    },
    async close() {
      await model.close();
      await claude.cleanup();
      await rm(root, { recursive: true, force: true });
    },
  };
}

/** A SKILL.md with this frontmatter and a body line the CLI falls back to when the frontmatter fails. */
export const skillMd = (frontmatter: string, eol = '\n') =>
  `---${eol}${frontmatter.split('\n').join(eol)}${eol}---${eol}${eol}Body first line.${eol}`;
