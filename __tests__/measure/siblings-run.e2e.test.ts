import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claudeEnvironment, type RunSpec, runOnce } from '../../src/agents/claude/run-once.js';
import type { StubLayout } from '../../src/agents/process/stub-project.js';
import type { LoadedEntry } from '../../src/agents/runs.js';
import {
  type Routes,
  routeScript,
  type SimulatedModel,
  startSimulatedModel,
} from '../../src/simulated/model.js';
import { findListingLine, stubSkillName } from '../../src/simulated/request.js';
import { CLAUDE_BIN, makeClaudeEnv } from '../fakes/claude-env.js';

/**
 * Sibling skills through the REAL claude binary: the tested stub and two siblings in
 * one project, the simulated model routing among them by script, and each run's outcome and
 * `loaded` equal to what the model did in that run (read from the request it answered).
 */
const SIBLINGS = [
  { skillName: 'xlsx', description: 'Edit spreadsheets and workbooks' },
  { skillName: 'pdf', description: 'Fill PDF forms', whenToUse: 'when a form must be filled' },
];
const ROUTES: Routes = {
  'summarise this session': { handoff: 0.5, xlsx: 0.3 },
  'fix the formula in my workbook': { xlsx: 0.6, pdf: 0.2, handoff: 0.1 },
  'fill this tax form': { pdf: 0.7, dataviz: 0.2 },
};
const RUNS = 4;

let model: SimulatedModel;
let claude: Awaited<ReturnType<typeof makeClaudeEnv>>;
let projectsRoot: string;
let layout: StubLayout = 'command';

beforeAll(async () => {
  model = await startSimulatedModel({
    script: routeScript(ROUTES),
    recordBodies: true,
    // The skill layout lists every stub by its real name: the harness says which is which.
    isStub: (e) => (layout === 'skill' ? e.name === 'handoff' : /^handoff-stub-/.test(e.name)),
    isCompetitor: (e) => layout === 'skill' && SIBLINGS.some((s) => s.skillName === e.name),
  });
  claude = await makeClaudeEnv(model);
  projectsRoot = await mkdtemp(path.join(tmpdir(), 'skilltrigger-e2e-siblings-'));
});

afterAll(async () => {
  await model.close();
  await claude.cleanup();
  await rm(projectsRoot, { recursive: true, force: true });
});

function spec(query: string): RunSpec {
  return {
    query,
    stub: {
      layout,
      skillName: 'handoff',
      description: 'Summarise the session into HANDOFF.md',
      siblings: SIBLINGS,
      root: projectsRoot,
    },
    timeoutMs: 30_000,
    claudeBin: CLAUDE_BIN,
    env: claudeEnvironment(claude.env, 0),
  };
}

/** What the model's first-turn behaviour amounts to, in the Decider's terms. */
function expectedLoaded(behaviour: unknown): LoadedEntry {
  const b = behaviour as { kind: string; name?: string };
  if (b.kind !== 'skill' || b.name === undefined) return { kind: 'none' };
  const skill = stubSkillName(b.name);
  if (skill === 'handoff') return { kind: 'stub' };
  if (SIBLINGS.some((s) => s.skillName === skill)) return { kind: 'sibling', name: skill };
  return { kind: 'other' };
}

describe.each(['command', 'skill'] as const)('siblings in one run, %s layout (real claude)', (which) => {
  it('each run records what the model loaded, and the listing holds every sibling as written', async () => {
    layout = which;
    const seen: string[] = [];
    for (let pass = 0; pass < RUNS; pass++) {
      for (const query of Object.keys(ROUTES)) {
        const from = model.requests.length;
        const result = await runOnce(spec(query));
        const first = model.requests.slice(from).find((r) => r.turn === 1 && r.view?.query === query);
        expect(first, 'the run reached the model').toBeDefined();
        const expected = expectedLoaded(first?.behaviour);
        expect(result.loaded).toEqual(expected);
        expect(result.outcome.kind).toBe(expected.kind === 'stub' ? 'triggered' : 'not-triggered');
        // The names the listing holds: the command layout's random names, the skill layout's real ones.
        for (const sibling of SIBLINGS) {
          const listed = first?.view?.stubs?.find((e) => stubSkillName(e.name) === sibling.skillName);
          expect(listed, `${sibling.skillName} is listed`).toBeDefined();
          const line = findListingLine(first?.body, listed?.name ?? '');
          const text = sibling.whenToUse
            ? `${sibling.description} - ${sibling.whenToUse}`
            : sibling.description;
          expect(line?.description).toBe(text);
          if (which === 'command')
            expect(listed?.name).toMatch(new RegExp(`^${sibling.skillName}-stub-[0-9a-f]{8}$`));
          else expect(listed?.name).toBe(sibling.skillName);
        }
        seen.push(result.loaded?.kind === 'sibling' ? result.loaded.name : (result.loaded?.kind ?? '?'));
      }
    }
    // The routes were exercised: at least one sibling load and one stub load over the runs.
    const all = seen;
    expect(all).toContain('stub');
    expect(all.some((k) => k === 'xlsx' || k === 'pdf')).toBe(true);
  }, 600_000);
});
