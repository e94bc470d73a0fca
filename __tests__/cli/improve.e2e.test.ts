import { copyFile, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatUsd } from '../../src/cost/cost.js';
import { Browser, CHROMIUM, chromiumInstalled } from '../fakes/browser.js';
import { REPO_ROOT, runCli } from '../fakes/cli.js';
import {
  GOOD,
  GREEDY,
  HOLD_NEG,
  HOLD_POS,
  type ImproveResult,
  type ImproveScenario,
  INCUMBENT,
  SKILL_MD,
  startImproveScenario,
  TRAIN_POS,
  USELESS,
} from '../fakes/improve-scenario.js';
import { type Canary, loadQuietly, startCanary } from '../fakes/quiet-page.js';

/**
 * `improve` through the real claude binary against the simulated model, with scripted rewrites
 * whose true rates are known (../fakes/improve-scenario.ts): one session of four proposals judged
 * every way a proposal can be, its page loaded in a real browser, and a session that writes its
 * winner into SKILL.md. The sessions stopped short (a signal, the budget) are in
 * improve-stop.e2e.test.ts.
 *
 * The page is loaded in Debian's chromium, headless, where it logs no error and makes no request
 * but its own; the invalid rewrite carries markup that points at a loopback listener and must
 * reach the page as text. Screenshot in light and dark, printed; `UPDATE_SCREENSHOTS=1` copies the
 * light one to docs/html-improve.png. Only that check is skipped when chromium is not installed
 * and this is not CI (.ci/run installs it).
 */
const inCi = process.env.CI === 'true';
const noBrowser = !chromiumInstalled() && !inCi;
if (noBrowser) console.warn(`improve.e2e: the page's browser check is skipped: ${CHROMIUM} is not installed`);

let scenario: ImproveScenario;

beforeAll(async () => {
  scenario = await startImproveScenario('improve-e2e');
});

afterAll(async () => {
  await scenario?.world.close();
});

describe('improve', () => {
  describe('a session of four proposals: greedy, good, invalid markup, useless', () => {
    let canary: Canary;
    /** The third rewrite: markup aimed at the canary. Angle brackets make it invalid; its reason quotes it. */
    let hostile = '';
    let s: ImproveResult;

    // One session serves every test below: each asserts a facet of it.
    beforeAll(async () => {
      canary = await startCanary();
      hostile = `Writes handoff notes <img src="${canary.url}/img"> <a href="${canary.url}/a">x</a> "quoted"`;
      scenario.rewrites([GREEDY, GOOD, hostile, USELESS]);
      s = await scenario.improve('choose', ['--iterations', '4']);
    }, 900_000);

    afterAll(async () => {
      await canary?.close();
    });

    it('rejects the greedy rewrite on its negatives, accepts the good one, rejects the invalid one unmeasured and the useless one; SKILL.md untouched', () => {
      const { r, report, markdown, skillAfter } = s;
      expect(r.stderr).toMatch(/improve: iteration 1\/4 · asking for a rewrite/);
      expect(r.code).toBe(0);
      if (report === undefined) throw new Error(`no improve report: ${r.stderr}`);
      const [greedy, good, invalid, useless] = report.candidates;
      expect(report.candidates).toHaveLength(4);
      expect(greedy).toMatchObject({ description: GREEDY, decision: 'rejected', label: 'regression' });
      expect(greedy?.reason).toMatch(/regression on train: negatives fired 0\/6 → 6\/6/);
      expect(good).toMatchObject({ description: GOOD, decision: 'accepted', label: 'improvement' });
      expect(good?.pValue).toBeLessThan(report.settings.proposalAlpha / 2);
      expect(invalid).toMatchObject({
        proposal: 'invalid',
        description: null,
        decision: 'rejected',
        train: null,
      });
      expect(invalid?.reason).toContain('<img src=');
      expect(useless).toMatchObject({ description: USELESS, decision: 'rejected', label: 'noise' });
      // The useless one was judged against the new incumbent, the good one.
      expect(useless?.train?.incumbent.positives).toEqual({ hits: 6, runs: 6 });
      expect(report.stopReason).toBe('reached --iterations 4');
      // Train and holdout apart: 2+2 train, 1+1 holdout, 3 runs a query.
      expect(report.queries).toEqual({
        train: { positives: 2, negatives: 2 },
        holdout: { positives: 1, negatives: 1 },
      });
      expect(report.original.train).toEqual({
        positives: { hits: 0, runs: 6 },
        negatives: { hits: 0, runs: 6 },
      });
      expect(report.original.holdout).toEqual({
        positives: { hits: 0, runs: 3 },
        negatives: { hits: 0, runs: 3 },
      });
      expect(report.final.winner).toBe(GOOD);
      expect(report.final.holdout?.winner).toEqual({
        positives: { hits: 3, runs: 3 },
        negatives: { hits: 0, runs: 3 },
      });
      expect(report.final.recommendation).toBe('adopt');
      expect(report.final.written).toBe(false);
      expect(markdown.split('\n')[2]).toMatch(/holds description texts/);
      expect(r.stdout).toMatch(
        /Put it into SKILL\.md with skilltrigger improve --apply <the improve report below> --skill <dir>/,
      );
      // Without --write, SKILL.md is byte-identical.
      expect(skillAfter).toBe(SKILL_MD);
    });

    it('the holdout never reaches the rewriter; the train failures do', () => {
      const { rewritePrompts } = s;
      expect(rewritePrompts).toHaveLength(4);
      for (const request of rewritePrompts) {
        const body = JSON.stringify(request.body);
        expect(body).not.toContain(HOLD_POS);
        expect(body).not.toContain(HOLD_NEG);
        expect(body).not.toContain('omega');
      }
      const firstPrompt = JSON.stringify(rewritePrompts[0]?.body);
      for (const q of TRAIN_POS) expect(firstPrompt).toContain(q);
    });

    it("the terminal says what the session spent in the Markdown's own line", () => {
      const { r, report, markdown, rewritePrompts } = s;
      // The built-in table prices the default model.
      const cost = report?.cost;
      if (cost === undefined) throw new Error('the session has no cost');
      const spent = `Cost: ${formatUsd(cost.usd)} (measured runs ${formatUsd(cost.measuredUsd)}; ${cost.rewriteCalls} rewrite calls ${formatUsd(cost.rewriteUsd)}).`;
      expect(cost.rewriteCalls).toBe(rewritePrompts.length);
      expect(r.stdout.split('\n')).toContain(spent);
      expect(markdown).toContain(`\n${spent}\n`);
    });

    it.skipIf(noBrowser)(
      'its page: beside the JSON, rewritten alike by view, in chromium loads nothing and logs nothing',
      async () => {
        const { r, report, htmlPath, jsonPath } = s;
        const { world } = scenario;
        expect(htmlPath).not.toBe('');
        expect(r.stdout).toContain(htmlPath);
        const hostileReason = report?.candidates[2]?.reason ?? '';
        expect(hostileReason).toContain('<img src=');

        // view draws an improve JSON: the same page, once the written one is gone.
        const written = await readFile(htmlPath, 'utf8');
        await rm(htmlPath);
        const v = await runCli(['view', jsonPath], { env: world.claude.env });
        expect(v.code, v.stderr).toBe(0);
        expect(v.stdout.trim()).toBe(htmlPath);
        expect(await readFile(htmlPath, 'utf8')).toBe(written);

        const browser = await Browser.launch();
        try {
          const page = await loadQuietly(browser, htmlPath, canary);
          expect(await page.evaluate<string>('document.body.dataset.page')).toBe('improve');
          // Two charts; per chart the original and the three measured candidates, the invalid one
          // as unmeasured, and the holdout of the original and the winner.
          expect(await page.evaluate<number>(`document.querySelectorAll('svg.trend').length`)).toBe(2);
          expect(await page.evaluate<number>(`document.querySelectorAll('svg.trend circle.pt').length`)).toBe(
            8,
          );
          expect(
            await page.evaluate<number>(`document.querySelectorAll('svg.trend .pt.unmeasured').length`),
          ).toBe(2);
          expect(
            await page.evaluate<number>(`document.querySelectorAll('svg.trend .pt.holdout').length`),
          ).toBe(4);
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
          expect(canary.hits).toEqual([]);
          const shot = path.join(world.work, 'improve-light.png');
          await writeFile(shot, light);
          if (process.env.UPDATE_SCREENSHOTS === '1') {
            await copyFile(shot, path.join(REPO_ROOT, 'docs', 'html-improve.png'));
          }
        } finally {
          await browser.close();
        }
      },
      300_000,
    );
  });

  it('with --write replaces only the description in SKILL.md', async () => {
    scenario.rewrites([GOOD]);
    const { r, report, skillAfter } = await scenario.improve('write', ['--iterations', '1', '--write']);
    expect(r.code).toBe(0);
    expect(report?.final).toMatchObject({ recommendation: 'adopt', written: true, winner: GOOD });
    expect(r.stdout).toMatch(/SKILL\.md updated \(description only\)/);
    expect(skillAfter).toBe(
      SKILL_MD.replace(`description: >\n  ${INCUMBENT}\n`, `description: ${JSON.stringify(GOOD)}\n`),
    );
  }, 600_000);
});
