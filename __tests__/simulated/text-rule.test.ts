import { describe, expect, it } from 'vitest';
import { draftPrompt, readDraftPrompt, readRewritePrompt, rewritePrompt } from '../../src/author/prompts.js';
import { draftItems, rewriteText } from '../../src/simulated/author-answers.js';
import { authorPromptKind, descriptionRule } from '../../src/simulated/description-script.js';
import { type RequestView, seededRandom } from '../../src/simulated/model.js';
import {
  BARE_FACTOR,
  bestEntry,
  coverage,
  listedProbability,
  RULE_CEILING,
  RULE_FLOOR,
  stem,
  triggerProbability,
} from '../../src/simulated/text-rule.js';

const HANDOFF =
  'Write HANDOFF.md summarising the current session so a fresh session can resume. Use when the user asks for a handoff or a session summary.';

function view(query: string, description?: string): RequestView {
  return {
    query,
    listing: description === undefined ? [] : [{ name: 'handoff-stub-0123abcd', description }],
    ...(description === undefined ? {} : { stub: { name: 'handoff-stub-0123abcd', description } }),
    model: 'claude-sonnet-4-5',
    stream: true,
    followUp: false,
    toolResultIds: [],
  };
}

describe('the text rule', () => {
  it('stems endings so word forms meet', () => {
    expect(stem('summarising')).toBe(stem('summarise'));
    expect(stem('sessions')).toBe(stem('session'));
    expect(stem('notes')).toBe(stem('note'));
    expect(stem('class')).toBe('class');
  });

  it('maps coverage linearly from the floor to the ceiling at half the words', () => {
    expect(triggerProbability('bake sourdough bread', HANDOFF)).toBeCloseTo(RULE_FLOOR);
    expect(triggerProbability('write a handoff for this session', HANDOFF)).toBeCloseTo(RULE_CEILING);
    // 1 of 4 words covered: coverage 0.25, half way.
    expect(coverage('summarise quarterly pdf report', HANDOFF)).toBeCloseTo(0.25);
    expect(triggerProbability('summarise quarterly pdf report', HANDOFF)).toBeCloseTo(0.5);
    expect(triggerProbability('', HANDOFF)).toBeCloseTo(RULE_FLOOR);
  });

  it('counts the words of a "Not for" sentence against the query', () => {
    const query = 'summarise the quarterly pdf';
    const plain = triggerProbability(query, HANDOFF);
    const sharper = triggerProbability(query, `${HANDOFF} Not for quarterly reports or pdf files.`);
    expect(sharper).toBeLessThan(plain);
    expect(sharper).toBeCloseTo(RULE_FLOOR);
  });

  it('a limerick covers none of a real prompt, the real description most of it', () => {
    const limerick = 'There once was a skill from Nantucket whose words were all kept in a bucket';
    const q = 'summarise this session into HANDOFF.md before I close the terminal';
    expect(triggerProbability(q, limerick)).toBeCloseTo(RULE_FLOOR);
    expect(triggerProbability(q, HANDOFF)).toBeGreaterThan(0.9);
  });
});

describe('an entry listed bare', () => {
  const q = 'write a handoff for this session';
  const bare = { name: 'handoff-stub-0123abcd', description: '' };
  const name = (n: string) => n.replace(/-stub-[0-9a-f]{8}$/, '');

  it("is read by its skill's name at BARE_FACTOR of the rule, below the whole description", () => {
    // 1 of 3 words ("handoff") in the name: coverage 1/3, the rule 0.05 + 0.9 × 2/3 = 0.65, halved.
    expect(listedProbability(q, bare, name)).toBeCloseTo(BARE_FACTOR * 0.65);
    expect(listedProbability(q, { ...bare, description: HANDOFF }, name)).toBeCloseTo(RULE_CEILING);
    expect(listedProbability('bake sourdough bread', bare, name)).toBeCloseTo(BARE_FACTOR * RULE_FLOOR);
  });

  it('reads a cut entry as listed: between the bare name and the whole text', () => {
    const query = 'summarise this session into a resumable note';
    const cut = { ...bare, description: HANDOFF.slice(0, 40) };
    const whole = listedProbability(query, { ...bare, description: HANDOFF }, name);
    const part = listedProbability(query, cut, name);
    expect(part).toBeLessThan(whole);
    expect(part).toBeGreaterThan(listedProbability(query, bare, name));
  });

  it('loses a route to a sibling listed whole, and loads at the bare rate when alone', () => {
    const sibling = { name: 'notes-stub-89abcdef', description: 'Write a session handoff note.' };
    expect(bestEntry(q, [bare, sibling], name)?.entry).toBe(sibling);
    const script = descriptionRule();
    let hits = 0;
    for (let n = 0; n < 2000; n++) {
      const v = { ...view(q, HANDOFF), listing: [bare], stub: bare };
      if (script(v, { occurrence: n, random: seededRandom(5, q, n) })?.kind === 'skill') hits++;
    }
    expect(hits / 2000).toBeGreaterThan(0.28);
    expect(hits / 2000).toBeLessThan(0.37);
  });
});

describe('descriptionRule', () => {
  const ctx = (query: string, occurrence = 0) => ({ occurrence, random: seededRandom(3, query, occurrence) });

  it('loads the stub at the rule rate over many seeded draws', () => {
    const script = descriptionRule();
    const q = 'summarise quarterly pdf report';
    let hits = 0;
    for (let n = 0; n < 2000; n++) if (script(view(q, HANDOFF), ctx(q, n))?.kind === 'skill') hits++;
    expect(hits / 2000).toBeGreaterThan(0.45);
    expect(hits / 2000).toBeLessThan(0.55);
  });

  it('leaves the gate query and stub-less runs to the default, and honours overrides and rates', () => {
    const script = descriptionRule({
      overrides: { boom: { kind: 'api-error', status: 500 } },
      rate: (d, q) => (q === 'always' ? 1 : d === 'never' ? 0 : undefined),
    });
    expect(script(view('Reply with exactly: pong'), ctx('x'))).toBeUndefined();
    expect(script(view('boom', HANDOFF), ctx('boom'))).toEqual({ kind: 'api-error', status: 500 });
    expect(script(view('always', 'unrelated'), ctx('always'))?.kind).toBe('skill');
    expect(script(view('write a handoff', 'never'), ctx('write a handoff'))?.kind).toBe('text');
  });

  it('answers a draft prompt with a parseable, balanced draft that never names the skill', () => {
    const prompt = draftPrompt({ skillName: 'handoff', description: HANDOFF, body: '# handoff', count: 10 });
    expect(authorPromptKind(prompt)).toBe('draft');
    const input = readDraftPrompt(prompt);
    expect(input).toMatchObject({ skillName: 'handoff', count: 10 });
    const items = draftItems(input ?? { skillName: '', description: '', body: '', count: 0 });
    expect(items).toHaveLength(10);
    expect(items.filter((i) => i.should_trigger)).toHaveLength(5);
    for (const i of items.filter((x) => x.should_trigger))
      expect(i.query.toLowerCase()).not.toMatch(/\bhandoff\b/);
    const answer = script0(prompt);
    expect(answer).toMatch(/<eval_set>[\s\S]*<\/eval_set>/);
  });

  it('answers a rewrite prompt with a text built from the failing queries', () => {
    const prompt = rewritePrompt({
      skillName: 'handoff',
      body: '',
      current: HANDOFF,
      failing: [
        { query: 'dump the refactor state for another agent', shouldTrigger: true, hits: 0, runs: 4 },
        { query: 'summarise the quarterly pdf', shouldTrigger: false, hits: 3, runs: 4 },
      ],
      attempts: [
        { description: 'old text', train: 'positives 1/4, negatives 3/4', outcome: 'rejected: noise' },
      ],
    });
    expect(authorPromptKind(prompt)).toBe('rewrite');
    const input = readRewritePrompt(prompt);
    expect(input?.failing).toHaveLength(2);
    expect(input?.attempts).toEqual([
      { description: 'old text', train: 'positives 1/4, negatives 3/4', outcome: 'rejected: noise' },
    ]);
    const text = rewriteText(input ?? { skillName: '', body: '', current: '', failing: [], attempts: [] });
    expect(text.startsWith(HANDOFF)).toBe(true);
    expect(text).toMatch(/Also use it for requests about .*refactor/);
    expect(text).toMatch(/Not for .*quarterly/);
    expect(triggerProbability('dump the refactor state for another agent', text)).toBeGreaterThan(
      triggerProbability('dump the refactor state for another agent', HANDOFF),
    );
    expect(triggerProbability('summarise the quarterly pdf', text)).toBeLessThan(
      triggerProbability('summarise the quarterly pdf', HANDOFF),
    );
  });
});

function script0(prompt: string): string {
  const b = descriptionRule()(view(prompt), { occurrence: 0, random: () => 0 });
  return b?.kind === 'text' ? (b.text ?? '') : '';
}
