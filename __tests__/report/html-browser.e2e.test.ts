import { copyFile, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportSchema } from '../../src/schemas/report.js';
import type { Script } from '../../src/simulated/model.js';
import { Browser, CHROMIUM, chromiumInstalled, type Page } from '../fakes/browser.js';
import { type CliWorld, REPO_ROOT, runArgs, runCli, startCliWorld } from '../fakes/cli.js';
import { type Canary, loadQuietly, startCanary } from '../fakes/quiet-page.js';

/**
 * The HTML pages in a real browser: Debian's chromium, headless, loads the run page, the paired
 * page and the compare page of reports measured for real (the CLI, the real claude, the simulated
 * model), and must log no error and make no request but the page's own. The eval set holds
 * hostile text that points at a loopback listener: if any of it reached the DOM as markup, the
 * listener would hear of it. Each page is screenshot in light and dark; `UPDATE_SCREENSHOTS=1`
 * copies the light run and paired pages to docs/ for the README.
 *
 * Skipped only when chromium is not installed and this is not CI; in CI it always runs (.ci/run
 * installs chromium from Debian's packages).
 */

const inCi = process.env.CI === 'true';
const skip = !chromiumInstalled() && !inCi;
if (skip) {
  console.warn(
    `html-browser.e2e: skipped: ${CHROMIUM} is not installed (apt-get install chromium; CI installs it and never skips)`,
  );
}

const BASE = 'Write HANDOFF.md summarising the session so a fresh session can resume the work';
const CAND = 'Write HANDOFF.md when the user wraps up, hands off, or pauses a session, so another can resume';

let world: CliWorld;
let skillDir: string;
let canary: Canary;
let browser: Browser;
let shots: string;
/** Which measurement the script is answering: the single run gets a timeout and an error too. */
let phase: 'single' | 'paired' = 'single';

/** The eval set; `${canary}` marks where the loopback listener's address goes. */
function evalItems(canaryBase: string) {
  return [
    { query: 'Write the handoff notes for this session', should_trigger: true },
    {
      query: `<img src="${canaryBase}/query-img"> hand this session off <script>fetch('${canaryBase}/query-script')</script> | **now**`,
      should_trigger: true,
      note: `<a href="${canaryBase}/note-link">see</a> <!-- marker --> @octocat #12`,
      split: 'holdout',
    },
    { query: 'Summarise where we are so a new session can pick up', should_trigger: true },
    { query: 'Save our progress before I close the laptop', should_trigger: true },
    { query: 'Write a README for this repository', should_trigger: false },
    {
      query: 'Summarise this PDF for me',
      should_trigger: false,
      note: 'near miss: a summary, but of a document',
    },
    { query: "What's the weather in Lisbon tomorrow?", should_trigger: false, split: 'holdout' },
  ];
}

/**
 * The simulated truth, by description and query, run by run. Only the single run loses runs: the
 * third query's second run hangs to a timeout, the fifth query's second run is refused (529).
 */
function script(): Script {
  const seen = new Map<string, number>();
  return (req) => {
    const stub = req.stub;
    if (!stub || req.followUp) return undefined;
    const key = `${phase}\n${stub.description}\n${req.query}`;
    const run = (seen.get(key) ?? 0) + 1;
    seen.set(key, run);
    const better = stub.description === CAND;
    const q = req.query;
    const skill = { kind: 'skill' } as const;
    const text = { kind: 'text' } as const;
    if (q.startsWith('Write the handoff')) return skill;
    if (q.includes('hand this session off')) return run === 3 ? text : skill;
    if (q.startsWith('Summarise where')) return phase === 'single' && run === 2 ? { kind: 'hang' } : skill;
    if (q.startsWith('Save our progress')) return better ? skill : text;
    if (q.startsWith('Write a README'))
      return phase === 'single' && run === 2 ? { kind: 'api-error', status: 529, noRetry: true } : text;
    if (q.startsWith('Summarise this PDF')) return run === 1 && !better ? skill : text;
    return text;
  };
}

beforeAll(async () => {
  if (skip) return;
  world = await startCliWorld({
    name: 'html-browser',
    model: { seed: 3, script: script() },
    // The pages say so: these numbers come from the simulated model (and so do the README's screenshots).
    env: { SKILLTRIGGER_SIMULATED: '1' },
  });
  shots = await world.dir('screenshots');
  skillDir = path.dirname(
    await world.write('handoff/SKILL.md', `---\nname: handoff\ndescription: ${BASE}\n---\n`),
  );
  canary = await startCanary();
  browser = await Browser.launch();
});

afterAll(async () => {
  if (skip) return;
  await browser?.close();
  await world?.close();
  await canary?.close();
});

async function measure(name: string, extra: string[]): Promise<{ json: string; html: string }> {
  const file = await world.write(`${name}.json`, JSON.stringify(evalItems(canary.url)));
  const out = path.join(world.work, `out-${name}`);
  const r = await runCli(
    // Long enough that a loaded machine does not turn a slow run into a timeout; one run hangs to it.
    runArgs(skillDir, file, out, '--max-retries', '0', '--timeout', '30', ...extra),
    { env: world.claude.env },
  );
  expect(r.stderr).not.toMatch(/unexpected error/);
  expect(r.code, r.stderr).toBe(0);
  const files = await readdir(out);
  const json = path.join(out, files.find((f) => f.endsWith('.json')) ?? '');
  const html = path.join(out, files.find((f) => f.endsWith('.html')) ?? '');
  expect(r.stdout).toContain(html);
  return { json, html };
}

/** Loads a page and checks what every page must hold to: no error, no request but its own, no canary hit. */
function load(file: string): Promise<Page> {
  return loadQuietly(browser, file, canary);
}

/** Light and dark screenshots, and a print to PDF with the filters gone. */
async function lookAt(page: Page, name: string): Promise<void> {
  const light = await page.evaluate<string>('getComputedStyle(document.body).backgroundColor');
  await writeFile(path.join(shots, `${name}-light.png`), await page.screenshot());
  await page.emulate({ scheme: 'dark' });
  const dark = await page.evaluate<string>('getComputedStyle(document.body).backgroundColor');
  expect(light).toBe('rgb(255, 255, 255)');
  expect(dark).toBe('rgb(13, 17, 23)');
  await writeFile(path.join(shots, `${name}-dark.png`), await page.screenshot());
  await page.emulate({ scheme: 'dark', media: 'print' });
  expect(await page.evaluate<string>('getComputedStyle(document.body).backgroundColor')).toBe(
    'rgb(255, 255, 255)',
  );
  expect(await page.evaluate<string>('getComputedStyle(document.querySelector(".filters")).display')).toBe(
    'none',
  );
  const pdf = await page.printToPdf();
  expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  await page.emulate({});
  if (process.env.UPDATE_SCREENSHOTS === '1' && name !== 'compare') {
    await copyFile(path.join(shots, `${name}-light.png`), path.join(REPO_ROOT, 'docs', `html-${name}.png`));
  }
  // The page's activity after all this is still clean.
  expect(page.activity.messages.filter((m) => m.level === 'error')).toEqual([]);
  expect(canary.hits).toEqual([]);
}

/** Rows the browser shows (a filter hides a row with display: none). */
const VISIBLE_ROWS = `[...document.querySelectorAll('tr[data-class]')].filter((r) => getComputedStyle(r).display !== 'none').length`;

describe.skipIf(skip)('the HTML pages in a real browser (chromium, headless)', () => {
  let single: { json: string; html: string };
  let paired: { json: string; html: string };

  it('run page: bars, dots and filters work, nothing is loaded, nothing is logged', async () => {
    phase = 'single';
    single = await measure('single', ['--runs', '3']);
    const report = reportSchema.parse(JSON.parse(await readFile(single.json, 'utf8')));
    const outcomes = report.candidate.queries.flatMap((q) => q.outcomes);
    expect(outcomes).toContain('timeout');
    expect(outcomes).toContain('error:overloaded');
    const page = await load(single.html);
    expect(await page.evaluate<number>(`document.querySelectorAll('tr[data-class]').length`)).toBe(7);
    expect(await page.evaluate<number>(`document.querySelectorAll('tr[data-class] svg.rate').length`)).toBe(
      7,
    );
    expect(await page.evaluate<number>(`document.querySelectorAll('tr[data-class] .dot').length`)).toBe(
      outcomes.length,
    );
    // The hostile query is on the page as text, and as nothing else.
    expect(await page.evaluate<string>('document.body.innerText')).toContain('<img src="');
    expect(
      await page.evaluate<number>('document.querySelectorAll("body img, body script, body a").length'),
    ).toBe(0);
    // Filters, without a script: the page's own checkboxes and :has().
    expect(await page.evaluate<number>(VISIBLE_ROWS)).toBe(7);
    await page.evaluate(`document.getElementById('f-class-positive').click()`);
    expect(await page.evaluate<number>(VISIBLE_ROWS)).toBe(3);
    await page.evaluate(`document.getElementById('f-split-holdout').click()`);
    expect(await page.evaluate<number>(VISIBLE_ROWS)).toBe(2);
    await page.evaluate(`document.getElementById('f-class-positive').click()`);
    await page.evaluate(`document.getElementById('f-split-holdout').click()`);
    await page.evaluate(`document.getElementById('f-result-pass').click()`);
    const failing = report.candidate.queries.filter((q) => q.pass !== true).length;
    expect(await page.evaluate<number>(VISIBLE_ROWS)).toBe(failing);
    await page.evaluate(`document.getElementById('f-result-pass').click()`);
    await lookAt(page, 'run');
  }, 600_000);

  it('paired page: baseline against candidate per query, with the labels', async () => {
    phase = 'paired';
    // One run a side: the page's rows and labels, not a rate, are under test (and the compare
    // page below needs the two reports' runs per query to differ).
    paired = await measure('paired', ['--runs', '1', '--baseline-description', BASE, '--description', CAND]);
    const page = await load(paired.html);
    expect(await page.evaluate<string>(`document.body.dataset.page`)).toBe('paired');
    expect(await page.evaluate<number>(`document.querySelectorAll('tr[data-label]').length`)).toBe(7);
    expect(await page.evaluate<number>(`document.querySelectorAll('#totals svg.delta').length`)).toBe(2);
    await lookAt(page, 'paired');
  }, 600_000);

  it('compare page of two reports (skilltrigger view a.json b.json): the warnings first', async () => {
    expect(single && paired).toBeTruthy();
    const r = await runCli(['view', single.json, paired.json], { env: world.claude.env });
    expect(r.code, r.stderr).toBe(0);
    const file = r.stdout.trim();
    expect(path.dirname(file)).toBe(path.dirname(paired.json));
    const page = await load(file);
    expect(await page.evaluate<string>(`document.body.dataset.page`)).toBe('compare');
    // Both files are <date>-handoff.json: the page calls them by their roles.
    expect(await page.evaluate<string>(`document.querySelector('header p').innerText`)).toContain(
      'baseline → candidate',
    );
    const warnings = await page.evaluate<string>(`document.querySelector('.banner').innerText`);
    expect(warnings).toMatch(/paired report/);
    expect(warnings).toMatch(/runs per query differs/);
    await lookAt(page, 'compare');
  }, 120_000);
});
