import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type ProbeResult, probeListing } from '../../src/adapters/listing-probe.js';
import type { StubLayout } from '../../src/adapters/stub-project.js';
import { stubFieldsFor } from '../../src/inputs/listing.js';
import { claudeEnvironment, runOnce } from '../../src/measure/run-once.js';
import { type SimulatedModel, startSimulatedModel } from '../../src/simulated/model.js';
import { findListingLine } from '../../src/simulated/request.js';
import { CLAUDE_BIN, makeClaudeEnv } from '../fakes/claude-env.js';

/**
 * The parity harness: Claude Code's listing of a real SKILL.md (the listing probe, through the real
 * binary), and the listing of skilltrigger's own stub for that text, read from the request body
 * the simulated model receives in a real measured run (createStubProject + runOnce).
 */
export interface ParityHarness {
  /** How Claude Code lists this SKILL.md text. */
  listReal(text: string): Promise<ProbeResult>;
  /** How Claude Code lists skilltrigger's stub written for `listed`, in a measured run. */
  listStub(listed: string, layout: StubLayout): Promise<string | undefined>;
  close(): Promise<void>;
}

let counter = 0;

export async function startParityHarness(): Promise<ParityHarness> {
  const model: SimulatedModel = await startSimulatedModel({ recordBodies: true, isStub: () => false });
  const claude = await makeClaudeEnv(model);
  const root = await mkdtemp(path.join(tmpdir(), 'skilltrigger-parity-'));
  return {
    listReal: (text) =>
      probeListing({ layout: 'skill', text }, { claudeBin: CLAUDE_BIN, env: process.env, root }),
    async listStub(listed, layout) {
      const skillName = `parity-${process.pid}-${++counter}`;
      const query = `parity probe ${skillName}`;
      await runOnce({
        query,
        stub: { layout, skillName, ...stubFieldsFor(listed), root },
        timeoutMs: 60_000,
        claudeBin: CLAUDE_BIN,
        env: claudeEnvironment(claude.env, 0),
      });
      const request = model.requests.find((r) => r.view?.query === query && r.body !== undefined);
      const entry = request?.view?.listing.find((e) => e.name.startsWith(skillName));
      if (request === undefined || entry === undefined) return undefined;
      return findListingLine(request.body, entry.name)?.description;
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
