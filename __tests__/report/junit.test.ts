import { describe, expect, it } from 'vitest';
import { renderJunit } from '../../src/report/junit.js';
import { parseJunit } from '../fakes/junit-shape.js';
import {
  FIXTURE_DESCRIPTION,
  FIXTURE_PATHS,
  fixtureMeasurement,
  pairedReportFixture,
  reportFixture,
} from '../fakes/report-fixture.js';

describe('renderJunit', () => {
  it('gives one testcase per query, failures with hits/runs and outcomes, passes empty', () => {
    const xml = renderJunit(reportFixture());
    const doc = parseJunit(xml);
    expect(doc.name).toBe('skilltrigger: pdf-tables');
    expect(doc.suites).toHaveLength(1);
    const [suite] = doc.suites;
    expect(suite?.name).toBe('pdf-tables');
    expect(suite?.tests).toBe(8);
    // q2 (positive on the threshold: 1/2 is not above 0.5) and q7 (a negative that fired once) fail.
    expect(suite?.failures).toBe(2);
    expect(suite?.errors).toBe(0);
    const byId = new Map(suite?.cases.map((c) => [c.name.split(':')[0], c]));
    expect(byId.get('q1')).toEqual({
      name: 'q1: Pull the tables out of quarterly-report.pdf into a CSV',
      classname: 'pdf-tables.positives',
      time: 8.01,
    });
    expect(byId.get('q2')?.failure).toEqual({
      message: 'should trigger: triggered 1/2 runs (50%); passes above 50%',
      type: 'not-triggered',
      text: 'should trigger: triggered 1/2 runs (50%); passes above 50%\noutcomes in run order: triggered, not-triggered',
    });
    expect(byId.get('q7')?.failure?.message).toBe(
      'should not trigger: triggered 1/2 runs (50%); passes below 50%',
    );
    expect(byId.get('q7')?.classname).toBe('pdf-tables.negatives');
    // q3 passed on its one measured run; the timeout is named, not a failure.
    expect(byId.get('q3')?.failure).toBeUndefined();
    expect(byId.get('q3')?.systemOut).toBe('1 of 2 runs lost (1 timeouts, 0 errors), counted apart');
    expect(suite?.properties).toMatchObject({
      verdict: 'ok',
      simulated: 'false',
      'trigger-threshold': '0.5',
    });
  });

  it('makes a query with no measured run an <error>, never a failure, and a no-verdict side an extra error case', () => {
    const candidate = fixtureMeasurement([
      { query: 'lost one', shouldTrigger: true, outcomes: ['timeout', 'error:rate-limit'] },
      { query: 'fine', shouldTrigger: false, outcomes: ['not-triggered', 'not-triggered'] },
    ]);
    const doc = parseJunit(renderJunit(reportFixture({ candidate, verdict: candidate.verdict })));
    const [suite] = doc.suites;
    expect(suite?.tests).toBe(3);
    expect(suite?.failures).toBe(0);
    expect(suite?.errors).toBe(2);
    expect(suite?.cases[0]).toMatchObject({
      name: 'measurement',
      error: {
        type: 'no-verdict',
        message:
          'NO VERDICT — this is not a measurement: 2 of 4 planned runs were lost, more than 10% (at most 0); 1 query lost every run',
      },
    });
    expect(suite?.cases[1]?.error).toEqual({
      type: 'lost',
      message: 'should trigger: no run was measured; 2 of 2 runs lost (1 timeouts, 1 errors), counted apart',
      text: 'should trigger: no run was measured; 2 of 2 runs lost (1 timeouts, 1 errors), counted apart\noutcomes in run order: timeout, error:rate-limit',
    });
  });

  it('gives a paired report one suite per side', () => {
    const doc = parseJunit(renderJunit(pairedReportFixture()));
    expect(doc.suites.map((s) => s.name)).toEqual(['pdf-tables (baseline)', 'pdf-tables (candidate)']);
    expect(doc.suites[0]?.cases[0]?.classname).toBe('pdf-tables.baseline.positives');
    expect(doc.tests).toBe(16);
  });

  it('escapes hostile query text and control characters so the XML still parses to the same text', () => {
    const hostile =
      'a</testcase><testcase name="x">&amp; "quoted" \'single\' ]]> <!-- c --> \u0001\u0008\u001b bell\u0007';
    const newline = 'line one\nline two\r\n\ttabbed';
    const lone = `lone ${String.fromCharCode(0xd800)} surrogate \ufffe`;
    const candidate = fixtureMeasurement([
      { query: hostile, shouldTrigger: true, outcomes: ['not-triggered', 'not-triggered'], id: 'id<&>"' },
      { query: newline, shouldTrigger: false, outcomes: ['not-triggered', 'not-triggered'] },
      { query: lone, shouldTrigger: false, outcomes: ['not-triggered', 'not-triggered'] },
    ]);
    const xml = renderJunit(reportFixture({ candidate, skill: 'sk<i>ll&"' }));
    const doc = parseJunit(xml);
    const [suite] = doc.suites;
    expect(suite?.tests).toBe(3);
    expect(doc.name).toBe('skilltrigger: sk<i>ll&"');
    expect(suite?.cases[0]?.name).toBe(
      'id<&>": a</testcase><testcase name="x">&amp; "quoted" \'single\' ]]> <!-- c --> bell',
    );
    expect(suite?.cases[0]?.failure?.type).toBe('not-triggered');
    expect(suite?.cases[1]?.name).toBe('q2: line one line two tabbed');
    expect(suite?.cases[2]?.name).toBe('q3: lone \\ud800 surrogate \\ufffe');
    // Nothing XML 1.0 forbids is left in the file.
    // biome-ignore lint/suspicious/noControlCharactersInRegex: that is what is being checked
    expect(xml).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/);
    expect(xml).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
  });

  it('holds no description text and no path', () => {
    const xml = renderJunit(pairedReportFixture());
    expect(xml).not.toContain(FIXTURE_DESCRIPTION);
    for (const p of FIXTURE_PATHS) expect(xml).not.toContain(p);
  });
});
