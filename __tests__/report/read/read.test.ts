import { describe, expect, it } from 'vitest';
import { ExitCode, InputError } from '../../../src/errors.js';
import { jsonPath, parseReport } from '../../../src/report/read/read.js';
import { REPORT_SCHEMA_VERSION, type Report } from '../../../src/schemas/report.js';
import { pairedReportFixture, reportFixture } from '../../fakes/report-fixture.js';

const FILE = 'results/2025-03-14-pdf-tables.json';

/** Runs parseReport expecting an InputError, and returns it. */
function rejection(text: string): InputError {
  try {
    parseReport(text, FILE);
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    const inputError = error as InputError;
    expect(inputError.exitCode).toBe(ExitCode.input);
    expect(inputError.location.file).toBe(FILE);
    expect(inputError.message.startsWith(`${FILE}: `)).toBe(true);
    expect(inputError.message).not.toMatch(/\n\s+at /);
    return inputError;
  }
  throw new Error('parseReport accepted the file');
}

const json = (value: unknown) => JSON.stringify(value, null, 2);

describe('parseReport', () => {
  it('reads back what was written, single and paired', () => {
    const single = reportFixture();
    const paired = pairedReportFixture();
    expect(parseReport(json(single), FILE)).toEqual(single);
    expect(parseReport(json(paired), FILE)).toEqual(paired);
  });

  it('accepts a byte-order mark an editor added', () => {
    const report = reportFixture();
    expect(parseReport(`\uFEFF${json(report)}`, FILE)).toEqual(report);
  });

  it('rejects text that is not JSON', () => {
    const error = rejection('{"schema": "skilltrigger/report",');
    expect(error.problem).toMatch(/^not valid JSON \(/);
  });

  it('rejects an empty file and says so', () => {
    const error = rejection('');
    expect(error.problem).toMatch(/^not valid JSON/);
    expect(error.fix).toMatch(/empty/);
  });

  it.each([
    ['an array', '[]'],
    ['null', 'null'],
    ['a number', '42'],
    ['a string', '"report"'],
  ])('rejects %s as not a skilltrigger report', (_name, text) => {
    expect(rejection(text).problem).toMatch(/^not a skilltrigger report: expected a JSON object/);
  });

  it('rejects an object without a schema field as not a skilltrigger report', () => {
    const { schema: _schema, ...rest } = reportFixture();
    expect(rejection(json(rest)).problem).toBe('not a skilltrigger report: it has no "schema" field');
  });

  it("rejects another tool's file, quoting its schema", () => {
    const error = rejection(json({ schema: 'promptfoo/results', version: 3 }));
    expect(error.problem).toBe(
      'not a skilltrigger report: its "schema" is "promptfoo/results", not "skilltrigger/report"',
    );
  });

  it('tells the user to upgrade for a report from a newer skilltrigger', () => {
    const error = rejection(
      json({ ...reportFixture(), schemaVersion: REPORT_SCHEMA_VERSION + 1, somethingNew: true }),
    );
    expect(error.problem).toMatch(
      new RegExp(
        `^written by a newer skilltrigger \\(report schema version ${REPORT_SCHEMA_VERSION + 1}; this version reads ${REPORT_SCHEMA_VERSION}\\)`,
      ),
    );
    expect(error.fix).toBe('upgrade skilltrigger');
    expect(error.message).toMatch(/written by a newer skilltrigger.*Fix: upgrade/);
  });

  it('reads a version-1 report (written before the optional fields of version 2) as it was', () => {
    const { $schema: _s, ...v1 } = { ...reportFixture(), schemaVersion: 1 } as Record<string, unknown>;
    const read = parseReport(json(v1), 'v1.json');
    expect(read.schemaVersion).toBe(REPORT_SCHEMA_VERSION);
    expect(read.candidate.totals).toEqual(reportFixture().candidate.totals);
    expect(read.$schema).toBeUndefined();
  });

  it('reads a version-2 report (written before the sibling, model and cost fields of version 3) as it was', () => {
    const v2 = { ...reportFixture(), schemaVersion: 2 };
    const read = parseReport(json(v2), 'v2.json');
    expect(read.schemaVersion).toBe(REPORT_SCHEMA_VERSION);
    expect(read.candidate).toEqual(reportFixture().candidate);
    expect(read.candidate.totals.siblings).toBeUndefined();
    expect(read.candidate.byModel).toBeUndefined();
  });

  it('reads a version-3 report (written before pairedByModel) as it was', () => {
    const v3 = { ...reportFixture(), schemaVersion: 3 };
    const read = parseReport(json(v3), 'v3.json');
    expect(read.schemaVersion).toBe(REPORT_SCHEMA_VERSION);
    expect(read.candidate).toEqual(reportFixture().candidate);
    expect(read.pairedByModel).toBeUndefined();
  });

  it('reads a version-5 report (written before agents) as measured on claude at its CLI version', () => {
    const { agents: _a, ...v5 } = { ...reportFixture(), schemaVersion: 5, cli: { version: '2.1.300' } };
    const read = parseReport(json(v5), FILE);
    expect(read.schemaVersion).toBe(REPORT_SCHEMA_VERSION);
    expect(read.agents).toEqual([{ name: 'claude', version: '2.1.300' }]);
    const unknown = parseReport(json({ ...v5, cli: { version: null } }), FILE);
    expect(unknown.agents).toEqual([{ name: 'claude', version: null }]);
  });

  it('reads a version-6 report with its agents, and refuses one without them', () => {
    const v6 = {
      ...reportFixture(),
      agents: [{ name: 'codex', version: '0.169.0' }],
      cli: { version: '0.169.0' },
    };
    expect(parseReport(json(v6), FILE).agents).toEqual([{ name: 'codex', version: '0.169.0' }]);
    const { agents: _a, ...without } = v6;
    expect(rejection(json(without)).problem).toMatch(/\$\.agents: /);
    expect(rejection(json({ ...v6, agents: [{ name: 'copilot', version: null }] })).problem).toMatch(
      /\$\.agents\[0\]\.name: /,
    );
  });

  it("refuses agent fields that contradict each other: a first agent's version not the CLI's, a second agent without settings.agents", () => {
    const mismatch = { ...reportFixture(), agents: [{ name: 'claude', version: '9.9.9' }] };
    expect(rejection(json(mismatch)).problem).toContain('$.cli.version');
    const twoAgents = {
      ...reportFixture(),
      agents: [
        { name: 'claude', version: '2.1.328' },
        { name: 'codex', version: '0.169.0' },
      ],
    };
    expect(rejection(json(twoAgents)).problem).toContain('$.settings.agents');
  });

  it('rejects a report from an older skilltrigger', () => {
    const error = rejection(json({ ...reportFixture(), schemaVersion: 0 }));
    expect(error.problem).toMatch(/^written by an older skilltrigger \(report schema version 0/);
  });

  it('quotes a schema violation with its JSON path', () => {
    const report = reportFixture();
    const broken = JSON.parse(json(report));
    broken.candidate.queries[2].hits = 'two';
    const error = rejection(json(broken));
    expect(error.problem).toMatch(/^not a valid skilltrigger report: \$\.candidate\.queries\[2\]\.hits: /);
    expect(error.problem).toMatch(/number/);
  });

  it('quotes the first three violations and counts the rest', () => {
    const broken = JSON.parse(json(reportFixture()));
    broken.createdAt = 'yesterday';
    broken.skill = 7;
    broken.settings.runsPerQuery = 0;
    broken.candidate.description.sha256 = 'not-a-hash';
    broken.roster.members = ['UPPERCASE0000'];
    const problem = rejection(json(broken)).problem;
    expect(problem.match(/\$\.[\w.[\]]+: /g)).toHaveLength(3);
    expect(problem).toMatch(/; and 2 more$/);
    expect(problem).toContain('$.createdAt: ');
  });

  it('rejects a missing schemaVersion as a violation, not as a version mismatch', () => {
    const { schemaVersion: _v, ...rest } = reportFixture();
    expect(rejection(json(rest)).problem).toMatch(/^not a valid skilltrigger report: \$\.schemaVersion: /);
  });

  it('rejects an outcome code the schema does not know', () => {
    const broken = JSON.parse(json(reportFixture()));
    broken.candidate.queries[0].outcomes[0] = 'error:cosmic-ray';
    expect(rejection(json(broken)).problem).toContain('$.candidate.queries[0].outcomes[0]: ');
  });
});

describe('jsonPath', () => {
  it('reads every version of a report as written: each is consistent', () => {
    for (const schemaVersion of [1, 2, 3, 4, 5]) {
      for (const report of [reportFixture(), pairedReportFixture()]) {
        expect(() => parseReport(json({ ...report, schemaVersion }), FILE)).not.toThrow();
      }
    }
  });

  describe('refuses a report that contradicts itself, naming the field', () => {
    const edited = (edit: (r: Report) => void): string => {
      const report = structuredClone(reportFixture());
      edit(report);
      return json(report);
    };
    const inconsistency = (text: string) => {
      const error = rejection(text);
      expect(error.problem).toMatch(/^not a consistent skilltrigger report: /);
      expect(error.fix).toMatch(/changed after the report was written/);
      return error.problem;
    };
    const query = (r: Report, i: number) => {
      const q = r.candidate.queries[i];
      if (!q) throw new Error(`the fixture has no query ${i}`);
      return q;
    };

    it('hits edited (2 of 2 triggered, written as 1)', () => {
      expect(query(reportFixture(), 0).hits).toBe(2);
      expect(
        inconsistency(
          edited((r) => {
            query(r, 0).hits = 1;
          }),
        ),
      ).toContain('$.candidate.queries[0].hits: 1, but its 2 outcomes make it 2');
    });

    it('hits, rate and pass edited together: the outcomes still say otherwise', () => {
      const problem = inconsistency(
        edited((r) => {
          const q = query(r, 1); // triggered, not-triggered: 1 of 2, fails at 0.5
          Object.assign(q, { hits: 2, rate: 1, pass: true });
          r.candidate.totals.positives.triggered += 1;
        }),
      );
      expect(problem).toContain('$.candidate.queries[1].hits: 2, but its 2 outcomes make it 1');
    });

    it('outcomes edited (a miss turned into a hit): the counts no longer follow', () => {
      expect(
        inconsistency(
          edited((r) => {
            query(r, 1).outcomes = ['triggered', 'triggered'];
          }),
        ),
      ).toContain('$.candidate.queries[1].hits: 1, but its 2 outcomes make it 2');
    });

    it('a total edited', () => {
      expect(
        inconsistency(
          edited((r) => {
            r.candidate.totals.negatives.fired += 3;
          }),
        ),
      ).toMatch(/\$\.candidate\.totals\.negatives\.fired: \d+, but the queries' outcomes add up to \d+/);
    });

    it('verdict ok on an interrupted run', () => {
      expect(
        inconsistency(
          edited((r) => {
            r.candidate.interrupted = true;
            r.candidate.aborted = true;
          }),
        ),
      ).toContain(
        '$.candidate.verdict: "ok", but the run was interrupted ("interrupted": true), so there is no verdict',
      );
    });

    it("the report's verdict against its sides'", () => {
      const paired = structuredClone(pairedReportFixture());
      expect(paired.verdict).toBe('ok');
      paired.verdict = 'no-verdict';
      expect(inconsistency(json(paired))).toContain(
        '$.verdict: "no-verdict", but its two sides make it "ok"',
      );
    });
  });

  it('writes identifiers as dots, indexes and other keys in brackets', () => {
    expect(jsonPath([])).toBe('$');
    expect(jsonPath(['candidate', 'queries', 3, 'extra', 'needs context'])).toBe(
      '$.candidate.queries[3].extra["needs context"]',
    );
  });
});
