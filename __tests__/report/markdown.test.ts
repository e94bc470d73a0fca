import { describe, expect, it } from 'vitest';
import { escapeInline } from '../../src/escape.js';
import { headline, outcomeSymbols } from '../../src/report/headline.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { type Measurement, reportSchema } from '../../src/schemas/report.js';
import { expectGolden as expectGoldenFile } from '../fakes/golden.js';
import {
  FIXTURE_BASELINE_DESCRIPTION,
  FIXTURE_DESCRIPTION,
  FIXTURE_PATHS,
  FIXTURE_QUERIES,
  FIXTURE_ROSTER,
  FIXTURE_STUB,
  fixtureMeasurement,
  pairedReportFixture,
  reportFixture,
} from '../fakes/report-fixture.js';

/**
 * Compares with `__golden__/<name>`; `UPDATE_GOLDEN=1 npx vitest run __tests__/report` rewrites the
 * files instead (then read the diff before committing it).
 */
function expectGolden(name: string, actual: string): void {
  expectGoldenFile(import.meta.url, name, actual);
}

/** A table row's cells, split on the pipes Markdown sees (escaped pipes are cell content). */
function cells(line: string): string[] {
  const masked = line.replace(/\\[\s\S]/g, 'xx');
  const bounds = [...masked.matchAll(/\|/g)].map((m) => m.index);
  return bounds.slice(0, -1).map((start, i) => line.slice(start + 1, bounds[i + 1]).trim());
}

function tableRows(markdown: string): string[] {
  return markdown.split('\n').filter((line) => line.startsWith('|'));
}

/** The lines after the title, skipping blank ones. */
function bodyLines(markdown: string): string[] {
  return markdown
    .split('\n')
    .slice(1)
    .filter((l) => l.trim() !== '');
}

const lostEverything = fixtureMeasurement([
  ...FIXTURE_QUERIES.slice(0, 6),
  {
    id: 'q7',
    query: 'Convert this CSV into a PDF report',
    shouldTrigger: false,
    outcomes: ['error:rate-limit', 'error:rate-limit'],
  },
  {
    id: 'q8',
    query: 'Anything else?',
    shouldTrigger: false,
    outcomes: ['not-triggered', 'error:overloaded'],
  },
]);

describe('headline', () => {
  it('is the SPEC line, with timeouts and errors counted apart', () => {
    expect(headline(reportFixture().candidate)).toBe(
      'positives triggered 6/7 · negatives fired 1/8 · 1 timeout, 0 errors counted apart',
    );
  });

  it('uses the singular for exactly one and the plural otherwise', () => {
    const base = reportFixture().candidate;
    const withLost = (timeouts: number, errors: number) =>
      headline({ ...base, totals: { ...base.totals, timeouts, errors } });
    expect(withLost(0, 0)).toMatch(/· 0 timeouts, 0 errors counted apart$/);
    expect(withLost(1, 1)).toMatch(/· 1 timeout, 1 error counted apart$/);
    expect(withLost(2, 3)).toMatch(/· 2 timeouts, 3 errors counted apart$/);
  });
});

describe('outcomeSymbols', () => {
  it('writes one symbol per run in order', () => {
    expect(outcomeSymbols(['triggered', 'not-triggered', 'timeout', 'error:auth'])).toBe('●○◌✕');
  });
});

describe('renderMarkdown', () => {
  it('matches the golden file for a single report', () => {
    expectGolden('report.golden.md', renderMarkdown(reportFixture()));
  });

  it('matches the golden file for a paired report', () => {
    expectGolden('report-paired.golden.md', renderMarkdown(pairedReportFixture()));
  });

  it('matches the golden file for a simulated report without a verdict', () => {
    const report = reportFixture({ candidate: lostEverything, simulated: true });
    expect(reportSchema.parse(report)).toBeTruthy();
    expectGolden('report-no-verdict.golden.md', renderMarkdown(report));
  });

  it('titles the report with the skill and the UTC date', () => {
    const md = renderMarkdown(reportFixture({ createdAt: '2025-12-31T23:59:59.000Z' }));
    expect(md.split('\n')[0]).toBe('# skilltrigger: pdf-tables · 2025-12-31');
  });

  it('says first, before any number, that a no-verdict report is not a measurement, and why', () => {
    const report = reportFixture({ candidate: lostEverything });
    expect(report.verdict).toBe('no-verdict');
    const md = renderMarkdown(report);
    const [first] = bodyLines(md);
    expect(first).toMatch(/^\*\*No verdict: this is not a measurement\.\*\* /);
    for (const reason of lostEverything.noVerdictReasons) expect(first).toContain(escapeInline(reason));
    expect(md).toContain('- lost every run: q7');
    expect(md).toContain('- lost some runs: q3, q8');
    expect(md.indexOf('No verdict')).toBeLessThan(md.indexOf('positives triggered'));
  });

  it('titles and labels a --versus-clean report by the crowd, not baseline and candidate', () => {
    const paired = pairedReportFixture();
    const roster = {
      sha256: 'b'.repeat(64),
      from: 'folder' as const,
      skills: 80,
      commands: 0,
      versusClean: true as const,
    };
    const md = renderMarkdown({ ...paired, settings: { ...paired.settings, roster } });
    expect(md.split('\n')[0]).toMatch(/ · clean room vs among the crowd$/);
    expect(md).toContain('- Clean room: ');
    expect(md).toContain('- Among the crowd: ');
    expect(md).not.toContain('Baseline:');
  });

  it('names the side without a verdict in a paired report', () => {
    const report = pairedReportFixture({ baseline: lostEverything });
    const [first] = bodyLines(renderMarkdown(report));
    expect(first).toMatch(/^\*\*No verdict: this is not a measurement\.\*\* Baseline: /);
    expect(first).not.toContain('Candidate:');
  });

  it('says so at the top when the runs were simulated', () => {
    const md = renderMarkdown(reportFixture({ simulated: true }));
    const [first] = bodyLines(md);
    expect(first).toMatch(/^\*\*Simulated:\*\*/);
    expect(renderMarkdown(reportFixture())).not.toContain('Simulated');
  });

  it('says when the run was interrupted', () => {
    const candidate = { ...reportFixture().candidate, interrupted: true, aborted: true };
    expect(renderMarkdown(reportFixture({ candidate }))).toContain('interrupted before every planned run');
  });

  it('shows the environment: versions, models, roster, inherited counts, settings, description hash, conflict flag', () => {
    const report = reportFixture({ conflictAllowed: true });
    const md = renderMarkdown(report);
    expect(md).toContain('skilltrigger 0.1.0 · Claude Code CLI 2.1.328');
    expect(md).toContain('requested claude-sonnet-4-5 · reported claude-sonnet-4-5-20250929 (15 runs)');
    expect(md).toContain('4 slash commands, 2 skills');
    expect(md).toContain('1 project memory file, 0 user memory files, 2 hooks, 1 MCP server');
    expect(md).toContain('2 runs per query · timeout 30 s · trigger threshold 0.5');
    expect(md).toContain(`SHA-256 \`${report.candidate.description.sha256.slice(0, 12)}\``);
    expect(md).not.toContain(report.candidate.description.sha256);
    expect(md).toContain('--allow-conflict');
  });

  it('copes with what a run could not record', () => {
    const md = renderMarkdown(
      reportFixture({
        cli: { version: null },
        model: { requested: null, reported: {} },
        roster: null,
        environment: null,
      }),
    );
    expect(md).toContain('Claude Code CLI unknown');
    expect(md).toContain('requested the CLI default · reported none');
    expect(md).toContain('- Roster: not recorded');
    expect(md).toContain('- Inherited environment: not recorded');
  });

  it('keeps every table row to the header’s columns, single and paired', () => {
    for (const report of [reportFixture(), pairedReportFixture()]) {
      const rows = tableRows(renderMarkdown(report));
      const width = cells(rows[0] as string).length;
      expect(rows.length).toBe(report.candidate.queries.length + 2);
      for (const row of rows) expect(cells(row)).toHaveLength(width);
    }
  });

  it('puts both measurements of a paired report side by side, per query', () => {
    const md = renderMarkdown(pairedReportFixture());
    const row = tableRows(md).find((r) => r.startsWith('| q2 '));
    expect(row && cells(row)).toEqual([
      'q2',
      'Can you extract the revenue table \\| page 4 of the attached PDF?',
      'yes',
      '○○',
      '0/2 (0%)',
      '**fail**',
      '●○',
      '1/2 (50%)',
      '**fail**',
      '',
    ]);
    expect(md).toContain('- Baseline: positives triggered');
    expect(md).toContain('- Candidate: positives triggered 6/7');
  });

  it('escapes every user string, so hostile text can neither break the table nor inject anything', () => {
    const hostile = '<!-- x --> | @octocat #1 `code` **b** [l](u) \u202Eevil\r\nrow';
    const candidate = fixtureMeasurement(
      FIXTURE_QUERIES.map((q, i) => ({
        ...q,
        id: `${hostile}-${i}`,
        query: hostile,
        extra: { [hostile]: hostile },
      })),
    );
    const report = reportFixture({
      skill: hostile,
      candidate,
      tool: { name: 'skilltrigger', version: hostile },
      cli: { version: hostile },
      model: { requested: hostile, reported: { [hostile]: 1 } },
    });
    const md = renderMarkdown(report);
    expect(md).not.toMatch(/[<>]/);
    expect(md).not.toMatch(/@(?!&#8203;)/);
    expect(md).not.toMatch(/(?<!&)#(?!&#8203;)(?=\w)/);
    expect(md).not.toContain('\u202E');
    expect(md).not.toContain('\r');
    const rows = tableRows(md);
    expect(rows).toHaveLength(candidate.queries.length + 2);
    for (const row of rows) expect(cells(row)).toHaveLength(8);
    // Only our own Markdown is left unescaped: headings, bullets, bold "fail" and the description hash.
    const masked = md.replace(/\\[\s\S]/g, '');
    expect(masked.match(/`/g)).toHaveLength(2);
  });

  it('holds no private text: no path, description, stub or roster name', () => {
    for (const report of [
      reportFixture(),
      pairedReportFixture(),
      reportFixture({ candidate: lostEverything }),
    ]) {
      const md = renderMarkdown(report);
      for (const path of FIXTURE_PATHS) expect(md).not.toContain(path);
      expect(md).not.toMatch(/\/(home|tmp|Users)\//);
      expect(md).not.toContain(FIXTURE_DESCRIPTION);
      expect(md).not.toContain(FIXTURE_DESCRIPTION.slice(0, 24));
      expect(md).not.toContain(FIXTURE_BASELINE_DESCRIPTION);
      expect(md).not.toContain(FIXTURE_STUB);
      for (const name of ['review-pr', 'brand-voice']) {
        expect(
          FIXTURE_ROSTER.slashCommands.includes(name as never) ||
            FIXTURE_ROSTER.skills.includes(name as never),
        ).toBe(true);
        expect(md).not.toContain(name);
      }
    }
  });

  it('is deterministic', () => {
    expect(renderMarkdown(pairedReportFixture())).toBe(renderMarkdown(pairedReportFixture()));
  });
});

describe('the CLI-reported cost', () => {
  it('is not a second total in the Usage line', () => {
    const base = reportFixture();
    const usage = { ...base.candidate.totals.usage, costUsd: 0.3524 };
    const report = reportFixture({
      candidate: { ...base.candidate, totals: { ...base.candidate.totals, usage } },
    });
    const md = renderMarkdown(report);
    expect(md).not.toContain('0.3524');
    expect(md).not.toContain('as the CLI reported it');
  });

  const priced = (check: NonNullable<Measurement['cost']>['check']) => {
    const base = reportFixture();
    return renderMarkdown(
      reportFixture({
        candidate: {
          ...base.candidate,
          cost: {
            usd: 0.25,
            pricedRuns: 4,
            unpricedRuns: 0,
            unknownModels: [],
            byModel: { 'claude-haiku-4-5': 0.25 },
            ...(check ? { check } : {}),
          },
        },
      }),
    );
  };

  it('says where the one cost comes from, and on how many runs the CLI agreed', () => {
    const md = priced({
      runs: 2,
      models: [{ model: 'claude-haiku-4-5', runs: 2, tableUsd: 0.1, cliUsd: 0.1005, differs: false }],
    });
    expect(md).toContain(
      "- cost: $0.2500 from the price table · checked against the CLI's own figure on 2 runs · ",
    );
    expect(md).not.toContain('Warning');
  });

  it('warns near the cost with both figures, the model and the rate when they differ', () => {
    const md = priced({
      runs: 2,
      models: [
        {
          model: 'claude-haiku-4-5',
          runs: 2,
          tableUsd: 0.1,
          cliUsd: 0.08,
          differs: true,
          suspect: { rate: 'output', tableRate: 5, impliedRate: 4, alsoFits: [] },
        },
      ],
    });
    expect(md).toContain('- cost: $0.2500 from the price table · ');
    expect(md).not.toContain('checked against');
    expect(md).toContain(
      "- **Warning:** the price table and the CLI's own total_cost_usd differ for claude-haiku-4-5: $0.1000 from the table, $0.0800 from the CLI, over the 2 runs that reported it; the output rate most likely differs: the table has $5/M, the CLI's figure implies $4/M",
    );
  });
});
