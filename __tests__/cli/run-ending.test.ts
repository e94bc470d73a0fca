import { describe, expect, it } from 'vitest';
import { failingLine, nextLines, shellWord } from '../../src/cli/run-ending.js';
import { fixtureMeasurement, reportFixture } from '../fakes/report-fixture.js';

const hit = ['triggered', 'triggered'] as const;
const miss = ['not-triggered', 'not-triggered'] as const;
const lost = ['timeout', 'timeout'] as const;

const measurement = fixtureMeasurement([
  { query: 'write the handoff', shouldTrigger: true, outcomes: [...hit] },
  { query: 'save where we are', shouldTrigger: true, outcomes: [...miss] },
  { query: 'sum up this session', shouldTrigger: true, outcomes: [...lost] },
  { query: 'rename this variable', shouldTrigger: false, outcomes: [...hit] },
  { query: 'what time is it', shouldTrigger: false, outcomes: [...miss] },
]);
const where = {
  json: 'out/2026-12-06-handoff.json',
  skill: 'skills/handoff',
  evalFile: 'skills/handoff/evals.json',
};

describe("run's ending", () => {
  it('names the failing queries by class, and the ones that lost every run apart', () => {
    const ids = measurement.queries.map((q) => q.id);
    expect(failingLine(measurement)).toBe(
      `failing: positives ${ids[1]} (1 of 3) · negatives ${ids[3]} (1 of 2) · not measured ${ids[2]} (every run lost)`,
    );
  });

  it('says none fail when every query passes', () => {
    const clean = fixtureMeasurement([
      { query: 'write the handoff', shouldTrigger: true, outcomes: [...hit] },
      { query: 'what time is it', shouldTrigger: false, outcomes: [...miss] },
    ]);
    expect(failingLine(clean)).toBe('failing: none, all 2 queries pass');
    expect(nextLines(reportFixture({ candidate: clean }), where)).toEqual([
      'next: skilltrigger view out/2026-12-06-handoff.json --open   # the HTML page: every query, its runs and interval',
    ]);
  });

  it('offers improve, with the skill and the eval set measured, when a query fails', () => {
    const report = reportFixture({ candidate: measurement, verdict: 'ok' });
    expect(nextLines(report, { ...where, skill: 'my skills/handoff' })).toEqual([
      'next: skilltrigger view out/2026-12-06-handoff.json --open   # the HTML page: every query, its runs and interval',
      "      skilltrigger improve --skill 'my skills/handoff' --eval skills/handoff/evals.json   # a rewrite from the failing train queries, kept only if it measures better",
    ]);
  });

  it('quotes a shell word only when a shell would read it', () => {
    expect(shellWord('a/b-c_d.json')).toBe('a/b-c_d.json');
    expect(shellWord("it's here")).toBe("'it'\\''s here'");
  });
});
