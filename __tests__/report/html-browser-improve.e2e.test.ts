import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { improveReportSchema } from '../../src/shapes/improve.js';
import { type DescriptionRuleOptions, descriptionRule } from '../../src/simulated/description-script.js';
import { startSimulatedModel } from '../../src/simulated/model.js';
import { Browser, CHROMIUM, chromiumInstalled, type Page } from '../fakes/browser.js';
import { CLAUDE_BIN, makeClaudeEnv } from '../fakes/claude-env.js';
import { REPO_ROOT, runCli } from '../fakes/cli.js';
import { hostile } from '../fakes/html-hostile.js';
import { matrixFixture } from '../fakes/matrix-fixture.js';

/**
 * The improve page from a real `improve` session (the CLI, the real claude, the simulated model
 * with scripted rewrites whose true rates are known): written beside the improve JSON, written
 * again the same by `view` once deleted, and loaded in Debian's chromium, headless, where it
 * logs no error and makes no request but its own. A rewrite carries markup that points at a
 * loopback listener: it must reach the page as text. Screenshot in light and dark, printed;
 * `UPDATE_SCREENSHOTS=1` copies the light one to docs/html-improve.png.
 *
 * The matrix page is loaded the same way, from a hand-built matrix report drawn by `view` (the
 * matrix command lands on its own branch), its skill names and queries hostile markup aimed at the
 * canary.
 *
 * Skipped only when chromium is not installed and this is not CI (.ci/run installs it).
 */

const inCi = process.env.CI === 'true';
const skip = !chromiumInstalled() && !inCi;
if (skip) console.warn(`html-browser-improve.e2e: skipped: ${CHROMIUM} is not installed`);

const INCUMBENT = 'Helps with notes.';
const GREEDY = 'Use for absolutely every request about anything at all.';
const GOOD = 'Writes the session handoff note so the next session can resume.';

/** True rates per description: [positives, negatives]. */
const RATES: Record<string, readonly [number, number]> = {
  [INCUMBENT]: [0, 0],
  [GREEDY]: [1, 1],
  [GOOD]: [1, 0],
};

const TRAIN_POS = ['alpha train wanted one', 'alpha train wanted two'];
const TRAIN_NEG = ['alpha train unwanted one', 'alpha train unwanted two'];
const HOLD_POS = 'omega held wanted';
const POSITIVES = new Set([...TRAIN_POS, HOLD_POS]);

let work: string;
let model: Awaited<ReturnType<typeof startSimulatedModel>>;
let claude: Awaited<ReturnType<typeof makeClaudeEnv>>;
let browser: Browser;
const canaryHits: string[] = [];
let canary: import('node:http').Server;
let canaryUrl = '';
/** The third rewrite: markup aimed at the canary. Angle brackets make it invalid; its reason quotes it. */
let hostileRewrite = '';

const rule: DescriptionRuleOptions = {
  rate: (description, query) => {
    const rates = RATES[description] ?? RATES[GOOD];
    if (rates === undefined) return undefined;
    return POSITIVES.has(query) ? rates[0] : rates[1];
  },
  rewrite: (prompt) =>
    `<new_description>${[GREEDY, GOOD, hostileRewrite][prompt.attempts.length] ?? GOOD}</new_description>`,
};

beforeAll(async () => {
  if (skip) return;
  work = await mkdtemp(path.join(tmpdir(), 'skilltrigger-html-improve-'));
  const { createServer } = await import('node:http');
  canary = createServer((req, res) => {
    canaryHits.push(req.url ?? '');
    res.end();
  });
  await new Promise<void>((resolve) => canary.listen(0, '127.0.0.1', resolve));
  canaryUrl = `http://127.0.0.1:${(canary.address() as import('node:net').AddressInfo).port}`;
  hostileRewrite = `Writes handoff notes <img src="${canaryUrl}/img"> <a href="${canaryUrl}/a">x</a> "quoted"`;
  model = await startSimulatedModel({
    seed: 13,
    chunkDelayMs: 1,
    script: (req, ctx) => descriptionRule(rule)(req, ctx),
  });
  claude = await makeClaudeEnv(model, { SKILLTRIGGER_SIMULATED: '1' });
  browser = await Browser.launch();
});

afterAll(async () => {
  if (skip) return;
  await browser?.close();
  await model?.close();
  await claude?.cleanup();
  await new Promise((resolve) => canary?.close(resolve));
  await rm(work, { recursive: true, force: true });
});

/** Loads a page; it must log no error or warning, make no request but its own, and not reach the canary. */
async function load(file: string): Promise<Page> {
  const page = await browser.newPage();
  const url = pathToFileURL(file).href;
  await page.open(url);
  // A moment for anything deferred (a lazy image, a font) to have tried.
  await page.evaluate('new Promise((resolve) => setTimeout(resolve, 300))');
  expect(page.activity.exceptions).toEqual([]);
  expect(page.activity.messages.filter((m) => m.level === 'error' || m.level === 'warning')).toEqual([]);
  expect(page.activity.requests).toEqual([url]);
  expect(canaryHits).toEqual([]);
  return page;
}

describe.skipIf(skip)('the improve page in a real browser (chromium, headless)', () => {
  it('from a real improve run: beside the JSON, rewritten alike by view, loads nothing, logs nothing', async () => {
    const dir = path.join(work, 'handoff');
    await mkdir(dir);
    await writeFile(
      path.join(dir, 'SKILL.md'),
      `---\nname: handoff\ndescription: ${INCUMBENT}\n---\n\n# handoff\n`,
    );
    const evalFile = path.join(work, 'evals.json');
    await writeFile(
      evalFile,
      JSON.stringify([
        ...TRAIN_POS.map((query) => ({ query, should_trigger: true })),
        ...TRAIN_NEG.map((query) => ({ query, should_trigger: false })),
        { query: HOLD_POS, should_trigger: true, split: 'holdout' },
        { query: 'omega held unwanted', should_trigger: false, split: 'holdout' },
      ]),
    );
    const out = path.join(work, 'out');
    const r = await runCli(
      [
        'improve',
        '--skill',
        dir,
        '--eval',
        evalFile,
        '--runs',
        '3',
        '--iterations',
        '3',
        '--out',
        out,
        '--claude',
        CLAUDE_BIN,
      ],
      { env: claude.env },
    );
    expect(r.code, r.stderr).toBe(0);
    const files = await readdir(out);
    const json = path.join(out, files.find((f) => f.endsWith('-improve.json')) ?? 'none');
    const html = path.join(out, files.find((f) => f.endsWith('-improve.html')) ?? 'none');
    expect(r.stdout).toContain(html);
    const report = improveReportSchema.parse(JSON.parse(await readFile(json, 'utf8')));
    expect(report.candidates.map((c) => c.decision)).toEqual(['rejected', 'accepted', 'rejected']);
    expect(report.candidates[2]).toMatchObject({ proposal: 'invalid', description: null });
    const hostileReason = report.candidates[2]?.reason ?? '';
    expect(hostileReason).toContain('<img src=');

    // view draws an improve JSON: the same page, once the written one is gone.
    const written = await readFile(html, 'utf8');
    await rm(html);
    const v = await runCli(['view', json], { env: claude.env });
    expect(v.code, v.stderr).toBe(0);
    expect(v.stdout.trim()).toBe(html);
    expect(await readFile(html, 'utf8')).toBe(written);

    const page = await load(html);
    expect(await page.evaluate<string>('document.body.dataset.page')).toBe('improve');
    // Two charts; per chart the original and the two measured candidates, the invalid one as
    // unmeasured, and the holdout of the original and the winner.
    expect(await page.evaluate<number>(`document.querySelectorAll('svg.trend').length`)).toBe(2);
    expect(await page.evaluate<number>(`document.querySelectorAll('svg.trend circle.pt').length`)).toBe(6);
    expect(await page.evaluate<number>(`document.querySelectorAll('svg.trend .pt.unmeasured').length`)).toBe(
      2,
    );
    expect(await page.evaluate<number>(`document.querySelectorAll('svg.trend .pt.holdout').length`)).toBe(4);
    const box = await page.evaluate<number>(
      `document.querySelector('svg.trend').getBoundingClientRect().width`,
    );
    expect(box).toBeGreaterThan(100);
    // The hostile rewrite (quoted in its reason) is on the page as text, and as nothing else.
    expect(await page.evaluate<string>('document.body.innerText')).toContain(hostileReason);
    expect(
      await page.evaluate<number>('document.querySelectorAll("body img, body a, body script").length'),
    ).toBe(0);

    const light = await page.screenshot();
    await page.emulate({ scheme: 'dark' });
    expect(await page.evaluate<string>('getComputedStyle(document.body).backgroundColor')).toBe(
      'rgb(13, 17, 23)',
    );
    await page.screenshot();
    await page.emulate({ scheme: 'dark', media: 'print' });
    expect(await page.evaluate<string>('getComputedStyle(document.body).backgroundColor')).toBe(
      'rgb(255, 255, 255)',
    );
    const pdf = await page.printToPdf();
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    await page.emulate({});
    expect(page.activity.messages.filter((m) => m.level === 'error')).toEqual([]);
    expect(canaryHits).toEqual([]);
    await writeFile(path.join(work, 'improve-light.png'), light);
    if (process.env.UPDATE_SCREENSHOTS === '1') {
      await copyFile(path.join(work, 'improve-light.png'), path.join(REPO_ROOT, 'docs', 'html-improve.png'));
    }
  }, 900_000);

  it('matrix page from a real matrix run: beside the JSON, one cell per row and column, loads nothing, logs nothing', async () => {
    const skills = path.join(work, 'matrix-skills');
    const skill = async (name: string, description: string, evals?: unknown) => {
      const dir = path.join(skills, name);
      await mkdir(dir, { recursive: true });
      await writeFile(
        path.join(dir, 'SKILL.md'),
        `---\nname: ${name}\ndescription: ${description}\n---\n\n# ${name}\n`,
      );
      if (evals) await writeFile(path.join(dir, 'evals.json'), JSON.stringify(evals));
    };
    await skill('handoff', GOOD, [
      { query: TRAIN_POS[0], should_trigger: true },
      { query: TRAIN_NEG[0], should_trigger: false },
    ]);
    await skill('notes', 'Keeps meeting notes tidy.');
    const out = path.join(work, 'matrix-out');
    const r = await runCli(
      ['matrix', '--skills', skills, '--runs', '1', '--out', out, '--claude', CLAUDE_BIN],
      { env: claude.env },
    );
    expect(r.code, r.stderr).toBe(0);
    const files = (await readdir(out)).sort();
    const json = files.find((f) => f.endsWith('-matrix.json'));
    expect(files).toContain(json?.replace(/\.json$/, '.html'));
    const report = JSON.parse(await readFile(path.join(out, json ?? ''), 'utf8')) as {
      rows: unknown[];
      skills: unknown[];
    };
    const page = await load(path.join(out, (json ?? '').replace(/\.json$/, '.html')));
    expect(await page.evaluate<string>('document.body.dataset.page')).toBe('matrix');
    // Every row of the report (owner × label) has a cell per installed skill and none/other.
    expect(report.rows.length).toBeGreaterThan(0);
    expect(await page.evaluate<number>(`document.querySelectorAll('.heatmap tbody td.heat').length`)).toBe(
      report.rows.length * (report.skills.length + 1),
    );
    expect(page.activity.messages.filter((m) => m.level === 'error')).toEqual([]);
  }, 300_000);

  it('matrix page (view of a matrix JSON): the heatmap in the browser, nothing loaded, nothing logged', async () => {
    const json = path.join(work, 'matrix', '2025-03-14-matrix.json');
    await mkdir(path.dirname(json), { recursive: true });
    const payload = `<img src="${canaryUrl}/matrix-img"><a href="${canaryUrl}/matrix-a">x</a>`;
    await writeFile(json, JSON.stringify(matrixFixture(hostile(payload))));
    const v = await runCli(['view', json], { env: claude.env });
    expect(v.code, v.stderr).toBe(0);
    const html = v.stdout.trim();
    const page = await load(html);
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
    await writeFile(path.join(work, 'matrix-light.png'), await page.screenshot());
    await page.emulate({ scheme: 'dark' });
    expect(await page.evaluate<string>('getComputedStyle(document.body).backgroundColor')).toBe(
      'rgb(13, 17, 23)',
    );
    await page.emulate({ media: 'print' });
    expect((await page.printToPdf()).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    await page.emulate({});
    expect(page.activity.messages.filter((m) => m.level === 'error')).toEqual([]);
    expect(canaryHits).toEqual([]);
  }, 120_000);
});
