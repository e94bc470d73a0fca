import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../../src/schemas/privacy.js';
import { reportSchema } from '../../../src/schemas/report.js';
import { type CliWorld, runArgs, runCli, startCliWorld } from '../../fakes/cli.js';

/**
 * A listing regression (docs/listing-parity.md): a SKILL.md whose description holds ` --- `. Claude
 * Code 2.1.328 lists it as the text before the dashes; skilltrigger must measure exactly that (the
 * model sees it as the stub's description), record its size and hash, and say so, for both stub
 * layouts.
 */
const PDF_DESCRIPTION = 'Use this skill for any PDF task --- merging, splitting, forms, OCR.';
const LISTED = 'Use this skill for any PDF task';

let world: CliWorld;
let skillDir: string;
let evalFile: string;

beforeAll(async () => {
  world = await startCliWorld({
    name: 'listing-e2e',
    model: {
      recordBodies: false,
      isStub: (e) => e.name === 'pdf' || /^pdf-stub-[0-9a-f]{8}$/.test(e.name),
    },
  });
  skillDir = path.dirname(
    await world.write('pdf/SKILL.md', `---\nname: pdf\ndescription: ${PDF_DESCRIPTION}\n---\n\nBody line.\n`),
  );
  evalFile = await world.write(
    'evals.json',
    JSON.stringify([
      { query: 'listing-regression: merge these PDFs', should_trigger: true },
      { query: 'listing-regression: what is the weather', should_trigger: false },
    ]),
  );
});

afterAll(async () => {
  await world?.close();
});

describe('a description holding " --- " is measured as Claude Code lists it', () => {
  for (const stub of ['command', 'skill'] as const) {
    it(`--stub ${stub}`, { timeout: 240_000 }, async () => {
      const out = path.join(world.work, `out-${stub}`);
      const { tmp, env } = await world.tmpEnv(stub);
      const before = world.model.requests.length;
      const r = await runCli(runArgs(skillDir, evalFile, out, '--runs', '1', '--stub', stub), { env });
      expect(r.stderr).not.toMatch(/unexpected error/);
      expect(r.code).toBe(0);
      // The warning quotes both lengths and where it was cut.
      expect(r.stderr).toContain(
        'warning: Claude Code lists only the first 31 of the 67 characters the frontmatter holds',
      );
      expect(r.stderr).toContain('at the "---" at character 32');
      expect(r.stderr).not.toContain('listing: emulated');
      // Every measured run's model saw exactly the listed text as the stub's description.
      const seen = world.model.requests
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
