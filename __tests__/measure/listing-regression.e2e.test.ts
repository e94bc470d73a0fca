import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/shapes/privacy.js';
import { reportSchema } from '../../src/shapes/report.js';
import { type SimulatedModel, startSimulatedModel } from '../../src/simulated/model.js';
import { CLAUDE_BIN, makeClaudeEnv } from '../fakes/claude-env.js';
import { runCli } from '../fakes/cli.js';

/**
 * A listing regression (docs/listing-parity.md): a SKILL.md whose description holds ` --- `. Claude
 * Code 2.1.328 lists it as the text before the dashes; skilltrigger must measure exactly that (the
 * model sees it as the stub's description), record its size and hash, and say so, for both stub
 * layouts.
 */
const PDF_DESCRIPTION = 'Use this skill for any PDF task --- merging, splitting, forms, OCR.';
const LISTED = 'Use this skill for any PDF task';

let work: string;
let skillDir: string;
let evalFile: string;
let model: SimulatedModel;
let claude: Awaited<ReturnType<typeof makeClaudeEnv>>;

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'skilltrigger-listing-e2e-'));
  skillDir = path.join(work, 'pdf');
  await mkdir(skillDir);
  await writeFile(
    path.join(skillDir, 'SKILL.md'),
    `---\nname: pdf\ndescription: ${PDF_DESCRIPTION}\n---\n\nBody line.\n`,
  );
  evalFile = path.join(work, 'evals.json');
  await writeFile(
    evalFile,
    JSON.stringify([
      { query: 'listing-regression: merge these PDFs', should_trigger: true },
      { query: 'listing-regression: what is the weather', should_trigger: false },
    ]),
  );
  model = await startSimulatedModel({
    recordBodies: false,
    isStub: (e) => e.name === 'pdf' || /^pdf-stub-[0-9a-f]{8}$/.test(e.name),
  });
  claude = await makeClaudeEnv(model);
});

afterAll(async () => {
  await model?.close();
  await claude?.cleanup();
  await rm(work, { recursive: true, force: true });
});

describe('a description holding " --- " is measured as Claude Code lists it', () => {
  for (const stub of ['command', 'skill'] as const) {
    it(`--stub ${stub}`, { timeout: 240_000 }, async () => {
      const out = path.join(work, `out-${stub}`);
      const tmp = path.join(work, `tmp-${stub}`);
      await mkdir(tmp);
      const before = model.requests.length;
      const r = await runCli(
        [
          'run',
          '--skill',
          skillDir,
          '--eval',
          evalFile,
          '--runs',
          '1',
          '--stub',
          stub,
          '--out',
          out,
          '--claude',
          CLAUDE_BIN,
        ],
        { env: { ...claude.env, TMPDIR: tmp } },
      );
      expect(r.stderr).not.toMatch(/unexpected error/);
      expect(r.code).toBe(0);
      // The warning quotes both lengths and where it was cut.
      expect(r.stderr).toContain(
        'warning: Claude Code lists only the first 31 of the 67 characters the frontmatter holds',
      );
      expect(r.stderr).toContain('at the "---" at character 32');
      expect(r.stderr).not.toContain('listing: emulated');
      // Every measured run's model saw exactly the listed text as the stub's description.
      const seen = model.requests
        .slice(before)
        .filter((q) => q.view?.query.startsWith('listing-regression:') && q.turn === 1)
        .map((q) => q.view?.stub?.description);
      expect(seen.length).toBeGreaterThanOrEqual(2);
      expect(new Set(seen)).toEqual(new Set([LISTED]));
      const json = (await readdir(out)).find((f) => f.endsWith('.json')) ?? '';
      const report = reportSchema.parse(JSON.parse(await readFile(path.join(out, json), 'utf8')));
      expect(report.candidate.description.bytes).toBe(Buffer.byteLength(PDF_DESCRIPTION));
      expect(report.candidate.description.listed).toEqual({
        bytes: LISTED.length,
        sha256: sha256Hex(LISTED),
        source: 'probe',
      });
      const markdown = await readFile(path.join(out, json.replace(/\.json$/, '.md')), 'utf8');
      expect(markdown).toContain(
        `listed text (what Claude Code lists, and what was measured) 31 bytes, SHA-256 \`${sha256Hex(LISTED).slice(0, 12)}\``,
      );
      expect(markdown).not.toContain(LISTED);
      expect((await readdir(tmp)).filter((n) => n.startsWith('skilltrigger-'))).toEqual([]);
    });
  }
});
