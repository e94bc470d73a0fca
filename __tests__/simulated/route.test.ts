import { describe, expect, it } from 'vitest';
import { descriptionRule } from '../../src/simulated/description-script.js';
import { type RequestView, seededRandom } from '../../src/simulated/model.js';
import { parseRequestView, stubSkillName } from '../../src/simulated/request.js';
import { listedNameOf, routeOnce, routeScript } from '../../src/simulated/route.js';
import { bestEntry, triggerProbability } from '../../src/simulated/text-rule.js';

const HANDOFF = { name: 'handoff-stub-0123abcd', description: 'Write HANDOFF.md summarising the session' };
const XLSX = { name: 'xlsx-stub-99aa88bb', description: 'Edit spreadsheets, workbooks and formulas' };
const PDF = { name: 'pdf-stub-12345678', description: 'Fill PDF forms' };

function view(query: string): RequestView {
  const listing = [HANDOFF, XLSX, PDF, { name: 'dataviz', description: 'Charts' }];
  return {
    query,
    listing,
    stub: HANDOFF,
    stubs: [HANDOFF, XLSX, PDF],
    model: 'm',
    stream: true,
    followUp: false,
    toolResultIds: [],
  };
}

describe('the request view lists every stub', () => {
  it('takes the -stub- names and the competitors the scenario names, and keeps the tested stub', () => {
    const body = {
      model: 'm',
      messages: [
        {
          role: 'user',
          content: `<system-reminder>The following skills are available for use with the Skill tool:\n\n- pdf: Fill PDF forms\n- handoff: Summarise\n- xlsx-stub-99aa88bb: Sheets\n- dataviz: Charts\n</system-reminder>\nhello`,
        },
      ],
    };
    const v = parseRequestView(body, {
      isStub: (e) => e.name === 'handoff',
      isCompetitor: (e) => e.name === 'pdf',
    });
    if (typeof v === 'string') throw new Error(v);
    expect(v.stub?.name).toBe('handoff');
    expect(v.stubs?.map((e) => e.name)).toEqual(['pdf', 'handoff', 'xlsx-stub-99aa88bb']);
    expect(stubSkillName('xlsx-stub-99aa88bb')).toBe('xlsx');
    expect(stubSkillName('xlsx')).toBe('xlsx');
  });
});

describe('scripted routes', () => {
  it('maps a draw to the stub whose skill the route names, by its listed name, else a miss', () => {
    const route = { xlsx: 0.5, pdf: 0.25 };
    expect(routeOnce(route, view('q'), 0.1)).toEqual({ kind: 'skill', name: XLSX.name });
    expect(routeOnce(route, view('q'), 0.6)).toEqual({ kind: 'skill', name: PDF.name });
    expect(routeOnce(route, view('q'), 0.8)).toEqual({ kind: 'text' });
    expect(listedNameOf(view('q'), 'dataviz')).toBe('dataviz');
  });

  it('draws with the seeded random, so the share follows the probabilities', () => {
    const script = routeScript({ q: { handoff: 0.5, xlsx: 0.3 } });
    const counts: Record<string, number> = {};
    for (let n = 0; n < 2000; n++) {
      const b = script(view('q'), { occurrence: n, random: seededRandom(0, 'q', n) });
      const key = b?.kind === 'skill' ? (b.name ?? '') : 'miss';
      counts[key] = (counts[key] ?? 0) + 1;
    }
    expect((counts[HANDOFF.name] ?? 0) / 2000).toBeGreaterThan(0.45);
    expect((counts[HANDOFF.name] ?? 0) / 2000).toBeLessThan(0.55);
    expect((counts[XLSX.name] ?? 0) / 2000).toBeGreaterThan(0.25);
    expect((counts[XLSX.name] ?? 0) / 2000).toBeLessThan(0.35);
    expect(script(view('unrouted'), { occurrence: 0, random: () => 0 })).toBeUndefined();
  });
});

describe('the text rule among several stubs', () => {
  it('the description that fits the query best wins, with that fit as the probability', () => {
    const best = bestEntry('fix the formula in my workbook', [HANDOFF, XLSX, PDF], stubSkillName);
    expect(best?.entry).toBe(XLSX);
    expect(best?.probability).toBe(triggerProbability('fix the formula in my workbook', XLSX.description));
    // A tie (nothing fits) is broken per query by a hash, the same whatever order the listing has.
    const tie = (q: string) => bestEntry(q, [XLSX, PDF, HANDOFF], stubSkillName)?.entry.name;
    expect(bestEntry('hello there', [HANDOFF, PDF, XLSX], stubSkillName)?.entry.name).toBe(
      tie('hello there'),
    );
    const winners = new Set(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].map((w) => tie(`hello ${w}`)));
    expect(winners.size).toBeGreaterThan(1);
  });

  it('descriptionRule loads the sibling that fits, and a rewrite of the tested text changes who wins', () => {
    const rule = descriptionRule();
    const b = rule(view('fix the formula in my workbook'), { occurrence: 0, random: () => 0 });
    expect(b).toEqual({ kind: 'skill', name: XLSX.name });
    const greedy = { ...HANDOFF, description: 'Fix formulas in any workbook' };
    const v = { ...view('fix the formula in my workbook'), stub: greedy, stubs: [greedy, XLSX, PDF] };
    expect(rule(v, { occurrence: 0, random: () => 0 })).toEqual({ kind: 'skill' });
    expect(rule(v, { occurrence: 0, random: () => 0.999 })).toEqual({ kind: 'text' });
  });
});
