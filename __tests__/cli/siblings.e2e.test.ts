import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { probeListing } from '../../src/agents/claude/listing-probe.js';
import { sha256Hex } from '../../src/schemas/privacy.js';
import { type Report, reportSchema } from '../../src/schemas/report.js';
import { type Routes, routeScript, type SimulatedModel } from '../../src/simulated/model.js';
import { findListingLine, stubSkillName } from '../../src/simulated/request.js';
import { CLAUDE_BIN, type ClaudeEnv } from '../fakes/claude-env.js';
import { type CliWorld, runCli, startCliWorld } from '../fakes/cli.js';

/**
 * `run --siblings` end to end: the CLI, the real claude binary, the simulated
 * model routing by script among the tested stub and two siblings. Every count in the report is
 * compared with what the model did, run by run, read from the requests it answered.
 */
const SIBLING_FILES: Record<string, string> = {
  // A when_to_use Claude Code appends; a nested folder; a quoted description with a colon.
  'xlsx/SKILL.md':
    '---\nname: xlsx\ndescription: Edit spreadsheets and workbooks\nwhen_to_use: when a formula is wrong\n---\n\nBody.\n',
  'office/pdf/SKILL.md': '---\nname: pdf\ndescription: "Fill PDF forms: tax, visa, leases"\n---\n\nBody.\n',
};
const SIBLINGS = ['pdf', 'xlsx'];
const ROUTES: Routes = {
  'sib: summarise this session': { handoff: 0.5, xlsx: 0.3 },
  'sib: write the handoff note': { handoff: 0.6, pdf: 0.3 },
  'sib: fix the formula in my workbook': { xlsx: 0.6, handoff: 0.2, pdf: 0.1 },
  'sib: fill this tax form': { pdf: 0.7, dataviz: 0.2 },
  'sib: recalc the pivot table': { xlsx: 0.5, handoff: 0.4 },
};
const EVAL = [
  { query: 'sib: summarise this session', should_trigger: true },
  { query: 'sib: write the handoff note', should_trigger: true },
  { query: 'sib: fix the formula in my workbook', should_trigger: false, owner: 'xlsx' },
  { query: 'sib: fill this tax form', should_trigger: false },
];
// Two runs a query: each run's counts are checked against the model's own decision, and with these
// routes and the model's seed both layouts still send runs to a sibling (checked below).
const RUNS = 2;

let world: CliWorld;
let work: string;
let skillsDir: string;
let evalPath: string;
let model: SimulatedModel;
let claude: ClaudeEnv;

beforeAll(async () => {
  world = await startCliWorld({
    name: 'siblings-e2e',
    model: {
      script: routeScript(ROUTES),
      recordBodies: true,
      isStub: (e) => e.name === 'handoff' || /^handoff-stub-[0-9a-f]{8}$/.test(e.name),
      isCompetitor: (e) => SIBLINGS.includes(e.name),
    },
  });
  ({ work, model, claude } = world);
  skillsDir = path.join(work, 'skills');
  // The tested skill sits inside the siblings folder: excluded by its path.
  await mkdir(path.join(skillsDir, 'handoff'), { recursive: true });
  await writeFile(
    path.join(skillsDir, 'handoff', 'SKILL.md'),
    '---\nname: handoff\ndescription: Write HANDOFF.md summarising the session\n---\n\nBody.\n',
  );
  for (const [file, text] of Object.entries(SIBLING_FILES)) {
    await mkdir(path.dirname(path.join(skillsDir, file)), { recursive: true });
    await writeFile(path.join(skillsDir, file), text);
  }
  // xlsx's own eval set, found by the convention beside its SKILL.md (for --cross-negatives).
  await writeFile(
    path.join(skillsDir, 'xlsx', 'evals.json'),
    JSON.stringify([
      { query: 'sib: recalc the pivot table', should_trigger: true },
      { query: 'sib: write a poem', should_trigger: false },
    ]),
  );
  evalPath = path.join(work, 'evals.json');
  await writeFile(evalPath, JSON.stringify(EVAL));
});

afterAll(async () => {
  await world?.close();
});

async function readReport(out: string): Promise<{ report: Report; markdown: string }> {
  const files = (await readdir(out)).sort();
  const json = files.find((f) => f.endsWith('.json')) ?? '';
  const md = files.find((f) => f.endsWith('.md')) ?? '';
  const report = reportSchema.parse(JSON.parse(await readFile(path.join(out, json), 'utf8')));
  return { report, markdown: await readFile(path.join(out, md), 'utf8') };
}

function run(args: string[]) {
  return runCli(['run', '--claude', CLAUDE_BIN, '--max-retries', '0', ...args], { env: claude.env });
}

/** Each sibling as Claude Code lists its real SKILL.md: probed once, for both layouts. */
let listedSiblings: Promise<Record<string, string>> | undefined;
function siblingListing(): Promise<Record<string, string>> {
  listedSiblings ??= (async () => {
    const listedBy: Record<string, string> = {};
    for (const [file, text] of Object.entries(SIBLING_FILES)) {
      const probed = await probeListing(
        { layout: 'skill', text },
        { claudeBin: CLAUDE_BIN, env: claude.env },
      );
      if (probed.kind !== 'listed') throw new Error(`probe of ${file}: ${probed.kind}`);
      listedBy[probed.name] = probed.description;
    }
    return listedBy;
  })();
  return listedSiblings;
}

/** `run` of the handoff skill over its eval set with `--siblings <siblings>`, plus `extra`. */
function runWithSiblings(siblings: string, extra: string[]) {
  return run([
    '--skill',
    path.join(skillsDir, 'handoff'),
    '--eval',
    evalPath,
    '--siblings',
    siblings,
    ...extra,
  ]);
}

describe.each(['command', 'skill'] as const)('run --siblings, %s layout (real claude)', (layout) => {
  it('hits and siblingHits equal what the model did, run by run; the listing holds each sibling as Claude Code lists it', async () => {
    const out = path.join(work, `out-${layout}`);
    const from = model.requests.length;
    const r = await runWithSiblings(skillsDir, ['--runs', String(RUNS), '--stub', layout, '--out', out]);
    expect(r.stderr).not.toMatch(/unexpected error/);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('siblings: 2 installed beside the stub in every run (pdf, xlsx)');
    const { report, markdown } = await readReport(out);

    // What the model did: each measured run is one first-turn request of its query, in order.
    const firstTurns = model.requests
      .slice(from)
      .filter((q) => q.turn === 1 && q.view?.query.startsWith('sib: '));
    for (const query of report.candidate.queries) {
      const did = firstTurns
        .filter((q) => q.view?.query === query.query)
        .map((q) => {
          const b = q.behaviour as { kind: string; name?: string };
          return b.kind === 'skill' && b.name !== undefined ? stubSkillName(b.name) : 'none';
        });
      expect(did).toHaveLength(RUNS);
      expect(query.outcomes).toEqual(did.map((d) => (d === 'handoff' ? 'triggered' : 'not-triggered')));
      expect(query.hits).toBe(did.filter((d) => d === 'handoff').length);
      const siblingHits: Record<string, number> = {};
      for (const d of did) if (SIBLINGS.includes(d)) siblingHits[d] = (siblingHits[d] ?? 0) + 1;
      expect(query.siblingHits ?? {}).toEqual(siblingHits);
    }

    // The routes were exercised: some runs went to a sibling (else the comparisons above say little).
    expect(report.candidate.queries.some((q) => Object.keys(q.siblingHits ?? {}).length > 0)).toBe(true);

    // Totals: positive runs lost to each sibling; the owned negative's runs that went to xlsx.
    const totals = report.candidate.totals.siblings;
    const positives = report.candidate.queries.filter((q) => q.shouldTrigger);
    const lostTo: Record<string, number> = {};
    for (const q of positives)
      for (const [n, k] of Object.entries(q.siblingHits ?? {})) lostTo[n] = (lostTo[n] ?? 0) + k;
    expect(totals?.lostTo).toEqual(lostTo);
    expect(totals?.lostPositives).toBe(Object.values(lostTo).reduce((a, b) => a + b, 0));
    expect(totals?.positiveRuns).toBe(2 * RUNS);
    const owned = report.candidate.queries.find((q) => q.extra.owner === 'xlsx');
    expect(totals?.ownedNegativeRuns).toBe(RUNS);
    expect(totals?.toOwner).toBe(owned?.siblingHits?.xlsx ?? 0);
    // Went to its owner is not fired: the negative's hits are the stub's loads alone.
    expect(owned?.hits).toBe(owned?.outcomes.filter((o) => o === 'triggered').length);
    expect((owned?.hits ?? 0) + (owned?.siblingHits?.xlsx ?? 0)).toBeLessThanOrEqual(RUNS);

    // The listing of every measured run holds each sibling exactly as Claude Code lists its real SKILL.md.
    const listedBy = await siblingListing();
    expect(Object.keys(listedBy).sort()).toEqual(SIBLINGS);
    expect(listedBy.xlsx).toBe('Edit spreadsheets and workbooks - when a formula is wrong');
    for (const q of firstTurns) {
      for (const name of SIBLINGS) {
        const entry = q.view?.stubs?.find((e) => stubSkillName(e.name) === name);
        expect(entry, `${name} listed`).toBeDefined();
        expect(findListingLine(q.body, entry?.name ?? '')?.description).toBe(listedBy[name]);
      }
    }

    // The sibling set, by name and listed-text hash; the headline and the Markdown say who took what.
    expect(report.siblings).toEqual({
      members: SIBLINGS.map((name) => ({ name, sha256: sha256Hex(listedBy[name] ?? '') })),
      crossNegatives: false,
    });
    expect(r.stdout).toContain(`positives lost to siblings: ${totals?.lostPositives}/${2 * RUNS} runs`);
    expect(markdown).toContain(`positives lost to siblings: ${totals?.lostPositives}/${2 * RUNS} runs`);
  }, 600_000);
});

describe('run --siblings --cross-negatives (real claude)', () => {
  it("measures the siblings' positives as extra negatives, labelled from, counted apart, announced before any run", async () => {
    const out = path.join(work, 'out-cross');
    const from = model.requests.length;
    // One run a query: which queries are added, how they are labelled and counted is under test.
    const r = await runWithSiblings(skillsDir, ['--cross-negatives', '--runs', '1', '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    const estimate = r.stderr.indexOf(
      'cross-negatives: 1 positive of the siblings added as negatives: up to 1 more run (1 per query); no eval set beside pdf',
    );
    expect(estimate).toBeGreaterThanOrEqual(0);
    expect(estimate).toBeLessThan(r.stderr.indexOf('query 1/'));
    const { report } = await readReport(out);
    const crossQuery = report.candidate.queries.find((q) => q.id === 'xlsx/q1');
    expect(crossQuery).toMatchObject({
      query: 'sib: recalc the pivot table',
      shouldTrigger: false,
      extra: { from: 'xlsx', owner: 'xlsx' },
    });
    const did = model.requests
      .slice(from)
      .filter((q) => q.turn === 1 && q.view?.query === 'sib: recalc the pivot table')
      .map((q) => stubSkillName((q.behaviour as { name?: string }).name ?? 'none'));
    expect(did).toHaveLength(1);
    expect(crossQuery?.hits).toBe(did.filter((d) => d === 'handoff').length);
    expect(report.candidate.totals.siblings?.crossNegatives).toEqual({
      queries: 1,
      passed: crossQuery?.pass === true ? 1 : 0,
      fired: crossQuery?.hits,
      runs: 1,
    });
    expect(report.siblings?.crossNegatives).toBe(true);
    // The tested skill's own set is still all there, beside the extra negative.
    expect(report.candidate.queries).toHaveLength(EVAL.length + 1);
  }, 600_000);
});

describe('run --siblings with a sibling Claude Code does not list (real claude)', () => {
  it('leaves it out: it never competes, and the report does not name it', async () => {
    const dir = path.join(work, 'hidden-set');
    await mkdir(path.join(dir, 'hidden'), { recursive: true });
    await writeFile(
      path.join(dir, 'hidden', 'SKILL.md'),
      '---\nname: hidden\ndescription: Never listed\ndisable-model-invocation: true\n---\n',
    );
    await mkdir(path.join(dir, 'shown'), { recursive: true });
    await writeFile(path.join(dir, 'shown', 'SKILL.md'), '---\nname: shown\ndescription: Listed\n---\n');
    const out = path.join(work, 'out-hidden');
    const from = model.requests.length;
    // A positive and a negative (an eval set needs both): the listing of the positive's run is what is checked.
    const twoQueries = path.join(work, 'hidden-evals.json');
    await writeFile(twoQueries, JSON.stringify([EVAL[0], EVAL[3]]));
    const r = await run([
      '--skill',
      path.join(skillsDir, 'handoff'),
      '--eval',
      twoQueries,
      '--siblings',
      dir,
      '--runs',
      '1',
      '--out',
      out,
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('siblings: hidden is not listed by Claude Code');
    const { report } = await readReport(out);
    expect(report.siblings?.members.map((m) => m.name)).toEqual(['shown']);
    const first = model.requests
      .slice(from)
      .find((q) => q.turn === 1 && q.view?.query === 'sib: summarise this session');
    expect(first?.view?.listing.some((e) => e.name.startsWith('hidden'))).toBe(false);
    expect(first?.view?.listing.some((e) => e.name.startsWith('shown-stub-'))).toBe(true);
  }, 300_000);
});

describe('run --siblings input errors (exit 1, nothing spent)', () => {
  async function folder(name: string, files: Record<string, string>): Promise<string> {
    const dir = path.join(work, name);
    for (const [file, text] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
      await writeFile(path.join(dir, file), text);
    }
    return dir;
  }
  const attempt = (siblings: string) => runWithSiblings(siblings, ['--out', path.join(work, 'out-errors')]);

  it('names a sibling that does not parse, one with the tested name, and duplicate names', async () => {
    const before = model.requests.length;
    const broken = await folder('broken', { 'bad/SKILL.md': '---\nname: bad\n---\n\nNo description.\n' });
    let r = await attempt(broken);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(path.join(broken, 'bad', 'SKILL.md'));

    const clash = await folder('clash', {
      'copy/SKILL.md': '---\nname: handoff\ndescription: Another handoff\n---\n',
    });
    r = await attempt(clash);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(path.join(clash, 'copy', 'SKILL.md'));
    expect(r.stderr).toContain('the name of the skill under test');

    const twins = await folder('twins', {
      'a/SKILL.md': '---\nname: twin\ndescription: One\n---\n',
      'b/SKILL.md': '---\nname: twin\ndescription: Two\n---\n',
    });
    r = await attempt(twins);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('two siblings are named "twin"');
    expect(r.stderr).toContain('Fix:');
    expect(model.requests.length).toBe(before);
  }, 120_000);
});
