import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DescriptionRuleOptions, descriptionRule } from '../../src/simulated/description-script.js';
import { Browser, CHROMIUM, chromiumInstalled } from '../fakes/browser.js';
import { CLAUDE_BIN } from '../fakes/claude-env.js';
import { type CliWorld, runCli, startCliWorld } from '../fakes/cli.js';
import { hostile } from '../fakes/html-hostile.js';
import { matrixFixture } from '../fakes/matrix-fixture.js';
import { type Canary, loadQuietly, startCanary } from '../fakes/quiet-page.js';

/**
 * The matrix page in a real browser (Debian's chromium, headless): from a real `matrix` run (the
 * CLI, the real claude, the simulated model), written beside the JSON, and drawn by `view` from a
 * hand-built matrix report whose skill names and queries are hostile markup aimed at a loopback
 * canary. Each page logs no error and makes no request but its own. (The improve page is loaded
 * the same way from the real session of ../cli/improve.e2e.test.ts.)
 *
 * Skipped only when chromium is not installed and this is not CI (.ci/run installs it).
 */

const inCi = process.env.CI === 'true';
const skip = !chromiumInstalled() && !inCi;
if (skip) console.warn(`html-browser-matrix.e2e: skipped: ${CHROMIUM} is not installed`);

const HANDOFF = 'Writes the session handoff note so the next session can resume.';
const WANTED = 'alpha train wanted one';
const UNWANTED = 'alpha train unwanted one';

/** The handoff skill loads on its positive only; any other listed skill the same way. */
const rule: DescriptionRuleOptions = {
  rate: (_description, query) => (query === WANTED ? 1 : 0),
};

let world: CliWorld;
let browser: Browser;
let canary: Canary;

beforeAll(async () => {
  if (skip) return;
  world = await startCliWorld({
    name: 'html-matrix',
    model: { seed: 13, chunkDelayMs: 1, script: (req, ctx) => descriptionRule(rule)(req, ctx) },
    env: { SKILLTRIGGER_SIMULATED: '1' },
  });
  canary = await startCanary();
  browser = await Browser.launch();
});

afterAll(async () => {
  if (skip) return;
  await browser?.close();
  await canary?.close();
  await world?.close();
});

describe.skipIf(skip)('the matrix page in a real browser (chromium, headless)', () => {
  it('matrix page from a real matrix run: beside the JSON, one cell per row and column, loads nothing, logs nothing', async () => {
    const skills = path.join(world.work, 'matrix-skills');
    const skill = async (name: string, description: string, evals?: unknown) => {
      const dir = path.join(skills, name);
      await mkdir(dir, { recursive: true });
      await writeFile(
        path.join(dir, 'SKILL.md'),
        `---\nname: ${name}\ndescription: ${description}\n---\n\n# ${name}\n`,
      );
      if (evals) await writeFile(path.join(dir, 'evals.json'), JSON.stringify(evals));
    };
    await skill('handoff', HANDOFF, [
      { query: WANTED, should_trigger: true },
      { query: UNWANTED, should_trigger: false },
    ]);
    await skill('notes', 'Keeps meeting notes tidy.');
    const out = path.join(world.work, 'matrix-out');
    const r = await runCli(
      ['matrix', '--skills', skills, '--runs', '1', '--out', out, '--claude', CLAUDE_BIN],
      { env: world.claude.env },
    );
    expect(r.code, r.stderr).toBe(0);
    const files = (await readdir(out)).sort();
    const json = files.find((f) => f.endsWith('-matrix.json'));
    expect(files).toContain(json?.replace(/\.json$/, '.html'));
    const report = JSON.parse(await readFile(path.join(out, json ?? ''), 'utf8')) as {
      rows: unknown[];
      skills: unknown[];
    };
    const page = await loadQuietly(browser, path.join(out, (json ?? '').replace(/\.json$/, '.html')), canary);
    expect(await page.evaluate<string>('document.body.dataset.page')).toBe('matrix');
    // Every row of the report (owner × label) has a cell per installed skill and none/other.
    expect(report.rows.length).toBeGreaterThan(0);
    expect(await page.evaluate<number>(`document.querySelectorAll('.heatmap tbody td.heat').length`)).toBe(
      report.rows.length * (report.skills.length + 1),
    );
    expect(page.activity.messages.filter((m) => m.level === 'error')).toEqual([]);
  }, 300_000);

  it('matrix page (view of a matrix JSON): the heatmap in the browser, nothing loaded, nothing logged', async () => {
    const json = path.join(world.work, 'matrix', '2025-03-14-matrix.json');
    await mkdir(path.dirname(json), { recursive: true });
    const payload = `<img src="${canary.url}/matrix-img"><a href="${canary.url}/matrix-a">x</a>`;
    await writeFile(json, JSON.stringify(matrixFixture(hostile(payload))));
    const v = await runCli(['view', json], { env: world.claude.env });
    expect(v.code, v.stderr).toBe(0);
    const html = v.stdout.trim();
    const page = await loadQuietly(browser, html, canary);
    expect(await page.evaluate<string>('document.body.dataset.page')).toBe('matrix');
    // Four rows (two owners × two labels), three skills and none/other.
    expect(await page.evaluate<number>(`document.querySelectorAll('.heatmap tbody td.heat').length`)).toBe(
      16,
    );
    expect(
      await page.evaluate<number>('document.querySelectorAll("body img, body a, body script").length'),
    ).toBe(0);
    // The shades are the style sheet's: a full cell is the bar colour, an empty one is not shaded.
    const full = await page.evaluate<string>(
      `getComputedStyle(document.querySelector('.heat.h5')).backgroundColor`,
    );
    const empty = await page.evaluate<string>(
      `getComputedStyle(document.querySelector('td.heat.h0')).backgroundColor`,
    );
    expect(full).toBe('rgb(9, 105, 218)');
    expect(empty).toBe('rgba(0, 0, 0, 0)');
    await writeFile(path.join(world.work, 'matrix-light.png'), await page.screenshot());
    await page.emulate({ scheme: 'dark' });
    expect(await page.evaluate<string>('getComputedStyle(document.body).backgroundColor')).toBe(
      'rgb(13, 17, 23)',
    );
    await page.emulate({ media: 'print' });
    expect((await page.printToPdf()).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    await page.emulate({});
    expect(page.activity.messages.filter((m) => m.level === 'error')).toEqual([]);
    expect(canary.hits).toEqual([]);
  }, 120_000);
});
