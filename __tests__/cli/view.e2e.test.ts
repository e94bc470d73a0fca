import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderHtml, renderReportHtml } from '../../src/report/html/render.js';
import { TOOL_VERSION } from '../../src/version.js';
import { runCli } from '../fakes/cli.js';
import { improveFixture } from '../fakes/improve-fixture.js';
import { matrixFixture } from '../fakes/matrix-fixture.js';
import { pairedReportFixture, reportFixture } from '../fakes/report-fixture.js';

/**
 * `skilltrigger view` as a user runs it: the page written beside the report when it is missing,
 * never overwritten, its path printed; two reports give the compare page; `--open` starts the
 * platform's opener, here a stand-in `xdg-open` on PATH that records its arguments.
 */

let work: string;
let bin: string;
const env = () => ({ PATH: `${bin}:${process.env.PATH ?? ''}`, HOME: work });

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'skilltrigger-view-e2e-'));
  bin = path.join(work, 'bin');
  await mkdir(bin);
  // The stand-in opener: records what it was asked to open, then exits.
  const opener = path.join(bin, 'xdg-open');
  await writeFile(
    opener,
    `#!/bin/sh\nprintf '%s\\n' "$@" > "${path.join(work, 'opened.txt')}.tmp"\nmv "${path.join(work, 'opened.txt')}.tmp" "${path.join(work, 'opened.txt')}"\n`,
  );
  await chmod(opener, 0o755);
});

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

async function reportFile(name: string, report: unknown = reportFixture()): Promise<string> {
  const dir = path.join(work, name);
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, `${name}.json`);
  await writeFile(file, `${JSON.stringify(report, null, 2)}\n`);
  return file;
}

/** Waits for the detached opener to have written its file (bounded: 200 tries, 50 ms apart). */
async function openedArgs(): Promise<string[]> {
  const file = path.join(work, 'opened.txt');
  for (let i = 0; i < 200; i++) {
    try {
      return (await readFile(file, 'utf8')).trimEnd().split('\n');
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  throw new Error('the stand-in opener was never started');
}

describe('skilltrigger view', () => {
  it('writes the page beside a report that has none, prints its path, and leaves it alone after', async () => {
    const json = await reportFile('single');
    const r = await runCli(['view', json], { env: env() });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const page = json.replace(/\.json$/, '.html');
    expect(r.stdout).toBe(`${page}\n`);
    expect(await readFile(page, 'utf8')).toBe(renderReportHtml(reportFixture(), TOOL_VERSION));
    // A page already there is not rewritten: view only fills in what is missing.
    await writeFile(page, '<p>kept</p>');
    const again = await runCli(['view', json], { env: env() });
    expect(again.code).toBe(0);
    expect(again.stdout).toBe(`${page}\n`);
    expect(await readFile(page, 'utf8')).toBe('<p>kept</p>');
    expect((await readdir(path.dirname(json))).sort()).toEqual(['single.html', 'single.json']);
  });

  it('renders a paired report as its comparison page', async () => {
    const json = await reportFile('paired', pairedReportFixture());
    const r = await runCli(['view', json], { env: env() });
    expect(r.code).toBe(0);
    expect(await readFile(r.stdout.trim(), 'utf8')).toContain('<body data-page="paired">');
  });

  it('writes the compare page of two reports in the candidate’s folder', async () => {
    const a = await reportFile('base');
    const b = await reportFile(
      'cand',
      reportFixture({
        cli: { version: '2.1.330' },
        agents: [{ name: 'claude', version: '2.1.330' }],
      }),
    );
    const r = await runCli(['view', a, b], { env: env() });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const page = path.join(path.dirname(b), 'base-vs-cand.html');
    expect(r.stdout).toBe(`${page}\n`);
    expect(await readFile(page, 'utf8')).toBe(
      renderHtml(
        {
          kind: 'compare',
          base: reportFixture(),
          cand: reportFixture({
            cli: { version: '2.1.330' },
            agents: [{ name: 'claude', version: '2.1.330' }],
          }),
          names: { base: 'base.json', cand: 'cand.json' },
        },
        TOOL_VERSION,
      ),
    );
  });

  it('draws an improve report as its improve page, and a matrix report (version 1 too) as its matrix page', async () => {
    const matrix = matrixFixture();
    // A matrix report as version 1 wrote it: no launch recorded, so it ran cold.
    const { launch: _, ...v1Settings } = matrix.settings;
    const v1 = { ...matrix, schemaVersion: 1, settings: v1Settings };
    for (const [name, page] of [
      ['improve', { kind: 'improve', report: improveFixture() }],
      ['matrix', { kind: 'matrix', report: matrix }],
      ['matrix-v1', { kind: 'matrix', report: v1 }],
    ] as const) {
      const json = await reportFile(name, page.report);
      const r = await runCli(['view', json], { env: env() });
      expect(r.stderr, name).toBe('');
      expect(r.code, name).toBe(0);
      expect(r.stdout).toBe(`${json.replace(/\.json$/, '.html')}\n`);
      const html = await readFile(r.stdout.trim(), 'utf8');
      expect(html).toBe(renderHtml(page, TOOL_VERSION));
      if (name !== 'improve') expect(html).toContain(name === 'matrix' ? 'warm standbys' : 'cold starts');
    }
  });

  it('refuses a broken improve or matrix report by its own schema, naming the file and the field (exit 1)', async () => {
    const improve = await reportFile('broken-improve', { ...improveFixture(), candidates: 'none' });
    const r = await runCli(['view', improve], { env: env() });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${improve}: not a valid skilltrigger improve report: $.candidates:`);
    expect(r.stderr).toContain('skilltrigger improve');
    const matrix = await reportFile('broken-matrix', { ...matrixFixture(), rows: [{ owner: 1 }] });
    const m = await runCli(['view', matrix], { env: env() });
    expect(m.code).toBe(1);
    expect(m.stderr).toContain(`${matrix}: not a valid skilltrigger matrix report: $.rows[0]`);
    expect(await readdir(path.dirname(matrix))).toEqual(['broken-matrix.json']);
  });

  it('--open hands the page to the platform opener, detached', async () => {
    const json = await reportFile('opened');
    const r = await runCli(['view', json, '--open'], { env: env() });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const page = json.replace(/\.json$/, '.html');
    expect(await openedArgs()).toEqual([page]);
    expect((await stat(page)).isFile()).toBe(true);
  });

  it('--open without an opener installed still writes the page, and says how to open it', async () => {
    const json = await reportFile('no-opener');
    const r = await runCli(['view', json, '--open'], {
      env: { PATH: path.join(work, 'empty-path'), HOME: work },
    });
    expect(r.code).toBe(0);
    const page = json.replace(/\.json$/, '.html');
    expect(r.stdout).toBe(`${page}\n`);
    expect(r.stderr).toContain("warning: could not start the platform's opener");
    expect(r.stderr).toContain(`open ${page} in a browser yourself`);
  });

  it('refuses what is not a report, naming the file, and writes no page (exit 1)', async () => {
    const dir = path.join(work, 'bad');
    await mkdir(dir);
    const notReport = path.join(dir, 'notes.json');
    await writeFile(notReport, '{"hello": 1}');
    const r = await runCli(['view', notReport], { env: env() });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${notReport}: not a skilltrigger report: it has no "schema" field`);
    expect(await readdir(dir)).toEqual(['notes.json']);
    const missing = await runCli(['view', path.join(dir, 'nope.json')], { env: env() });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('nope.json: no such file');
  });

  it('refuses bad arguments with the usage line (exit 1)', async () => {
    for (const [args, message] of [
      [['view'], 'view needs a report'],
      [['view', 'a.json', 'b.json', 'c.json'], 'view takes at most two reports'],
      [['view', 'a.json', '--opne'], 'unknown option --opne for view: did you mean --open?'],
    ] as const) {
      const r = await runCli([...args], { env: env() });
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.stderr).toContain(message);
    }
  });
});
