import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  LISTING_HEADER,
  listingLinesOf,
  parseListing,
  parseRequestView,
  type RequestView,
  requestView,
  stripReminders,
} from '../../src/simulated/request.js';

/** Request bodies the real CLI 2.1.328 sent (system prompt and tools trimmed away). */
function fixture(name: string): unknown {
  return JSON.parse(readFileSync(new URL(`../fixtures/simulated/${name}.json`, import.meta.url), 'utf8'));
}

function view(name: string): RequestView {
  const parsed = parseRequestView(fixture(name));
  if (typeof parsed === 'string') throw new Error(`fixture ${name}: ${parsed}`);
  return parsed;
}

const STUB = { name: 'demo-stub-0123abcd', description: 'Summarise the current session into HANDOFF.md' };
const BUILT_INS = ['dataviz', 'update-config', 'keybindings-help', 'code-review', 'simplify'];

describe('parseRequestView on bodies captured from the real CLI', () => {
  it('format A (default model): listing in a role:"system" message, query without the reminders', () => {
    const v = view('format-a-first-turn');
    expect(v.query).toBe('Summarise this session for handoff');
    expect(v.model).toBe('claude-opus-5-5');
    expect(v.stream).toBe(true);
    expect(v.followUp).toBe(false);
    expect(v.cwd).toBe('/tmp/skilltrigger-run/proj');
    expect(v.stub).toEqual(STUB);
    expect(v.listing[0]).toEqual(STUB);
    expect(v.listing.map((e) => e.name)).toEqual(expect.arrayContaining(BUILT_INS));
    expect(v.listing.at(-1)?.name).toBe('security-review');
  });

  it('format B (claude-sonnet-4-5): listing in a <system-reminder> block of the first user message', () => {
    const v = view('format-b-first-turn');
    expect(v.query).toBe('Summarise this session for handoff');
    expect(v.model).toBe('claude-sonnet-4-5');
    expect(v.cwd).toBe('/tmp/skilltrigger-run/proj');
    expect(v.stub).toEqual(STUB);
    // Both formats list the same entries in the same order.
    expect(v.listing).toEqual(view('format-a-first-turn').listing);
  });

  it('a built-in description that spans several lines stays one entry', () => {
    const claudeApi = view('format-a-first-turn').listing.find((e) => e.name === 'claude-api');
    expect(claudeApi?.description).toMatch(/^Reference for the Claude API/);
    expect(claudeApi?.description).toContain('\nTRIGGER');
    expect(claudeApi?.description).toContain('\nSKIP only');
  });

  it('a later turn: the tool_result ids, the query of the first user message', () => {
    const v = view('format-a-follow-up');
    expect(v.followUp).toBe(true);
    expect(v.toolResultIds).toHaveLength(1);
    expect(v.toolResultIds[0]).toMatch(/^toolu_sim_/);
    expect(v.query).toBe('Summarise this session for handoff');
    expect(v.stub).toEqual(STUB);
  });

  it('isStub picks the stub; without a match there is none', () => {
    const body = fixture('format-a-first-turn');
    const custom = parseRequestView(body, { isStub: (e) => e.name === 'loop' });
    expect(typeof custom !== 'string' && custom.stub?.name).toBe('loop');
    const none = parseRequestView(body, { isStub: () => false });
    expect(typeof none !== 'string' && none.stub).toBeUndefined();
  });

  it('rejects bodies that are not Messages requests, with the field at fault', () => {
    expect(parseRequestView('x')).toBe('body: expected an object');
    expect(parseRequestView({ messages: [] })).toBe('model: Field required');
    expect(parseRequestView({ model: 'm' })).toBe('messages: Field required');
    expect(parseRequestView({ model: 'm', messages: [{ content: 'x' }] })).toMatch(/^messages:/);
  });

  it('a string content is one text block', () => {
    const v = parseRequestView({ model: 'm', messages: [{ role: 'user', content: 'hello' }] });
    expect(typeof v !== 'string' && v.query).toBe('hello');
  });
});

describe('parseListing', () => {
  const header = 'The following skills are available for use with the Skill tool:';

  it('entries cut by the listing budget have an empty description; names may hold colons', () => {
    const text = [
      header,
      '',
      '- long-desc',
      '- stubplug:plug-skill: A plugin skill: with a colon',
      '- skill-othername (different-name): name differs from the folder',
      '- plain: text',
      '',
      "Today's date is 2026-11-30.",
    ].join('\n');
    expect(parseListing(text)).toEqual([
      { name: 'long-desc', description: '' },
      { name: 'stubplug:plug-skill', description: 'A plugin skill: with a colon' },
      { name: 'skill-othername', description: 'name differs from the folder' },
      { name: 'plain', description: 'text' },
    ]);
  });

  it('stops at the closing reminder tag (format B)', () => {
    const text = `<system-reminder>\n${header}\n\n- a: one\n- b: two\n</system-reminder>`;
    expect(parseListing(text)).toEqual([
      { name: 'a', description: 'one' },
      { name: 'b', description: 'two' },
    ]);
  });

  it('no header, no listing', () => {
    expect(parseListing('- a: one')).toBeUndefined();
  });

  it('stripReminders keeps only what the user typed', () => {
    expect(
      stripReminders('<system-reminder>\nx\n</system-reminder>\nhello <system-reminder>y</system-reminder>'),
    ).toBe('hello');
  });
});

describe('listingLinesOf', () => {
  it('reads every entry, whole or bare, with its whole line and continuation lines', () => {
    const text = `<system-reminder>${LISTING_HEADER}\n- a: one\n- b\n- c (d): two\nmore\n- plug:e: three\n</system-reminder>`;
    const body = { messages: [{ role: 'user', content: [{ type: 'text', text }] }] };
    expect(listingLinesOf(body)).toEqual([
      { line: '- a: one', name: 'a', text: 'one' },
      { line: '- b', name: 'b', text: undefined },
      { line: '- c (d): two\nmore', name: 'c (d)', text: 'two\nmore' },
      { line: '- plug:e: three', name: 'plug:e', text: 'three' },
    ]);
    expect(listingLinesOf({ messages: [] })).toBeUndefined();
  });
});

describe('requestView', () => {
  const findings = {
    query: 'q',
    listing: [
      { name: 'pdf', description: 'Fill PDF forms' },
      { name: 'handoff', description: 'Summarise' },
      { name: 'xlsx-stub-99aa88bb', description: 'Sheets' },
    ],
    cwd: undefined,
    followUp: false,
    toolResultIds: [],
    toolResultTexts: [],
  };

  it('by default the stub is the first -stub-<8 hex> name, and only such names are stubs', () => {
    const v = requestView('m', true, findings, {});
    expect(v.stub?.name).toBe('xlsx-stub-99aa88bb');
    expect(v.stubs.map((e) => e.name)).toEqual(['xlsx-stub-99aa88bb']);
    expect(v.model).toBe('m');
    expect(v.stream).toBe(true);
  });

  it('the rules name the stub under test and its competitors, in listing order', () => {
    const v = requestView('m', true, findings, {
      isStub: (e) => e.name === 'handoff',
      isCompetitor: (e) => e.name === 'pdf',
    });
    expect(v.stub?.name).toBe('handoff');
    expect(v.stubs.map((e) => e.name)).toEqual(['pdf', 'handoff', 'xlsx-stub-99aa88bb']);
  });

  it('leaves out an absent stub and cwd; only a stream of true streams', () => {
    const v = requestView('m', 'yes', findings, { isStub: () => false });
    expect(Object.keys(v)).toEqual([
      'query',
      'listing',
      'stubs',
      'model',
      'stream',
      'followUp',
      'toolResultIds',
      'toolResultTexts',
    ]);
    expect(v.stream).toBe(false);
    expect(requestView('m', true, { ...findings, cwd: '/p' }, {}).cwd).toBe('/p');
  });
});
