import { describe, expect, it } from 'vitest';
import {
  BODY_LIMIT,
  between,
  DESCRIPTION_LIMIT,
  DRAFT_CLOSE,
  DRAFT_OPEN,
  type DraftPromptInput,
  draftPrompt,
  PROMPT_MAX_BYTES,
  REWRITE_CLOSE,
  REWRITE_OPEN,
  type RewritePromptInput,
  readDraftPrompt,
  readRewritePrompt,
  rewritePrompt,
} from '../../src/author/prompts.js';

// The author prompts and their readers (the simulated model's side of the format).
const DRAFT: DraftPromptInput = {
  skillName: 'release-notes',
  description: 'Writes release notes\n  from merged PRs.',
  body: '\n# Release notes\n\nGroup the PRs by label.\n\n',
  count: 7,
};
const REWRITE: RewritePromptInput = {
  skillName: 'release-notes',
  body: '# Release notes',
  current: 'Writes  release notes.',
  failing: [
    { query: 'turn the merged PRs\ninto a changelog', shouldTrigger: true, hits: 1, runs: 4 },
    { query: 'write a commit message · short', shouldTrigger: false, hits: 3, runs: 4 },
  ],
  attempts: [
    {
      description: 'Drafts release notes\nfrom PRs.',
      train: 'positives 14/20, negatives 3/20',
      outcome: 'rejected: no significant improvement on train (p = 0.31)',
    },
  ],
};

describe('between', () => {
  it('the text between the first open tag and the next close tag after it', () => {
    expect(between('x <a>one</a> <a>two</a>', '<a>', '</a>')).toBe('one');
    expect(between('</a> <a>one</a>', '<a>', '</a>')).toBe('one');
    expect(between('<a></a>', '<a>', '</a>')).toBe('');
  });

  it('undefined when either tag is missing, or the close comes only before the open', () => {
    expect(between('one</a>', '<a>', '</a>')).toBeUndefined();
    expect(between('<a>one', '<a>', '</a>')).toBeUndefined();
    expect(between('</a><a>', '<a>', '</a>')).toBeUndefined();
  });
});

describe('draftPrompt', () => {
  const prompt = draftPrompt(DRAFT);

  it('asks for half positives, rounded up, and the rest near-misses', () => {
    expect(prompt).toContain('Write exactly 7 prompts');
    expect(prompt).toContain('- 4 that SHOULD load this skill');
    expect(prompt).toContain('- 3 near-misses that should NOT load it');
    expect(draftPrompt({ ...DRAFT, count: 1 })).toContain('- 0 near-misses');
    expect(draftPrompt({ ...DRAFT, count: 20 })).toContain('- 10 that SHOULD');
  });

  it('tags each part: the description on one line, the body trimmed', () => {
    expect(prompt).toContain('<skill_name>\nrelease-notes\n</skill_name>');
    expect(prompt).toContain(
      '<skill_description>\nWrites release notes from merged PRs.\n</skill_description>',
    );
    expect(prompt).toContain('<skill_body>\n# Release notes\n\nGroup the PRs by label.\n</skill_body>');
    expect(prompt).toContain('<count>\n7\n</count>');
    expect(prompt).toContain(`between ${DRAFT_OPEN} and ${DRAFT_CLOSE}`);
  });

  it(`cuts a body over ${BODY_LIMIT} characters and says where`, () => {
    const exact = draftPrompt({ ...DRAFT, body: 'x'.repeat(BODY_LIMIT) });
    expect(exact).not.toContain('[… cut at');
    const long = draftPrompt({ ...DRAFT, body: `${'x'.repeat(BODY_LIMIT)}TAIL` });
    expect(long).toContain(`${'x'.repeat(BODY_LIMIT)}\n[… cut at ${BODY_LIMIT} characters]\n</skill_body>`);
    expect(long).not.toContain('TAIL');
  });

  it('reads back as what it was built from, description and body as sent', () => {
    expect(readDraftPrompt(prompt)).toEqual({
      skillName: 'release-notes',
      description: 'Writes release notes from merged PRs.',
      body: '# Release notes\n\nGroup the PRs by label.',
      count: 7,
    });
    expect(readDraftPrompt(draftPrompt({ ...DRAFT, body: '', description: '' }))).toMatchObject({
      description: '',
      body: '',
    });
  });
});

describe('the agent a prompt names', () => {
  it("Claude Code's by default; another agent's label when given, and the prompt still reads back", () => {
    expect(draftPrompt(DRAFT)).toContain(
      'the author of a Claude Code skill test when Claude loads it. Draft a trigger eval set',
    );
    expect(draftPrompt(DRAFT)).toContain('prompts a user might type into Claude Code:');
    const codex = draftPrompt({ ...DRAFT, agentLabel: 'Codex' });
    expect(codex).toContain('the author of a Codex skill test when Codex loads it.');
    expect(codex).toContain('prompts a user might type into Codex:');
    expect(codex).not.toContain('Claude');
    expect(readDraftPrompt(codex)).toMatchObject({ skillName: 'release-notes', count: 7 });
    const gemini = rewritePrompt({ ...REWRITE, agentLabel: 'Gemini CLI' });
    expect(gemini).toContain('the description of a Gemini CLI skill: the text Gemini CLI reads');
    expect(gemini).not.toContain('Claude');
    expect(readRewritePrompt(gemini)?.failing).toHaveLength(2);
  });
});

describe('readDraftPrompt', () => {
  it('undefined for any other text: no answer tags, a missing part, or a count that is not a whole number', () => {
    const prompt = draftPrompt(DRAFT);
    expect(readDraftPrompt('write me a poem')).toBeUndefined();
    expect(readDraftPrompt(prompt.replace(DRAFT_CLOSE, ''))).toBeUndefined();
    expect(readDraftPrompt(prompt.replace('<skill_name>', '<name>'))).toBeUndefined();
    expect(readDraftPrompt(prompt.replace('<count>\n7\n', '<count>\n7.5\n'))).toBeUndefined();
    expect(readDraftPrompt(prompt.replace('<count>\n7\n', '<count>\nseven\n'))).toBeUndefined();
  });

  it('a prompt without a body tag reads an empty body', () => {
    const prompt = draftPrompt(DRAFT).replace(/<skill_body>[\s\S]*<\/skill_body>/, '');
    expect(readDraftPrompt(prompt)?.body).toBe('');
  });
});

describe('rewritePrompt', () => {
  const prompt = rewritePrompt(REWRITE);

  it('lists each failing train query on one line with its class and hits', () => {
    expect(prompt).toContain(
      '<failing_queries>\n- should trigger · loaded 1/4 · turn the merged PRs into a changelog\n- should not trigger · loaded 3/4 · write a commit message · short\n</failing_queries>',
    );
  });

  it('numbers the earlier attempts, each description on one line with its train result and outcome', () => {
    expect(prompt).toContain(
      '<previous_attempts>\n<attempt n="1">\nDrafts release notes from PRs.\ntrain: positives 14/20, negatives 3/20; rejected: no significant improvement on train (p = 0.31)\n</attempt>\n</previous_attempts>',
    );
  });

  it('says none when nothing fails and nothing was tried', () => {
    const empty = rewritePrompt({ ...REWRITE, failing: [], attempts: [] });
    expect(empty).toContain('<failing_queries>\nnone\n</failing_queries>');
    expect(empty).toContain('<previous_attempts>\nnone yet\n</previous_attempts>');
  });

  it('states the spec’s limit and the answer tags', () => {
    expect(DESCRIPTION_LIMIT).toBe(1024);
    expect(prompt).toContain(`- At most ${DESCRIPTION_LIMIT} characters`);
    expect(
      prompt.endsWith(`Answer with only the new description between ${REWRITE_OPEN} and ${REWRITE_CLOSE}.`),
    ).toBe(true);
    expect(prompt).toContain('<current_description>\nWrites release notes.\n</current_description>');
  });

  const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

  it('stays within one command-line argument (128 KiB) however long the failing queries are, as the body does', () => {
    expect(PROMPT_MAX_BYTES).toBe(131_071);
    // Ten queries of 20 KiB each (each one a valid query on its own), beside a body at its limit.
    const failing = Array.from({ length: 10 }, (_, i) => ({
      query: `${i} ${'x'.repeat(20_000)}`,
      shouldTrigger: i % 2 === 0,
      hits: 0,
      runs: 4,
    }));
    const prompt = rewritePrompt({ ...REWRITE, body: 'b'.repeat(BODY_LIMIT + 10), failing });
    expect(bytes(prompt)).toBeLessThanOrEqual(PROMPT_MAX_BYTES);
    // The first queries that fit are sent whole, in order; the prompt says how many were left out.
    const sent = readRewritePrompt(prompt)?.failing ?? [];
    expect(sent.length).toBeGreaterThan(0);
    expect(sent).toEqual(failing.slice(0, sent.length));
    expect(prompt).toContain(
      `[${10 - sent.length} of 10 failing queries left out: the prompt must fit in one command-line argument]\n</failing_queries>`,
    );
    // The rest of the prompt is as it would be: the body, the attempts and the rules.
    expect(prompt).toContain(`[… cut at ${BODY_LIMIT} characters]`);
    expect(prompt).toContain('<attempt n="1">');
    expect(prompt.endsWith(`between ${REWRITE_OPEN} and ${REWRITE_CLOSE}.`)).toBe(true);
  });

  it('a query too long for the room left is left out, and shorter ones after it are still sent', () => {
    const failing = [
      { query: 'short one', shouldTrigger: true, hits: 0, runs: 4 },
      { query: 'y'.repeat(130_000), shouldTrigger: true, hits: 0, runs: 4 },
      { query: 'short two', shouldTrigger: false, hits: 4, runs: 4 },
    ];
    const prompt = rewritePrompt({ ...REWRITE, failing });
    expect(bytes(prompt)).toBeLessThanOrEqual(PROMPT_MAX_BYTES);
    expect(readRewritePrompt(prompt)?.failing.map((q) => q.query)).toEqual(['short one', 'short two']);
    expect(prompt).toContain('[1 of 3 failing queries left out');
  });

  it('a prompt that fits is unchanged by the bound: no note', () => {
    expect(prompt).not.toContain('left out');
    const atLimit = rewritePrompt({ ...REWRITE, body: 'b'.repeat(BODY_LIMIT) });
    expect(atLimit).toContain(`<skill_body>\n${'b'.repeat(BODY_LIMIT)}\n</skill_body>`);
  });

  it('even the longest other parts fit: a body of 4-byte characters and 19 attempts at the limit', () => {
    const wide = '😀'.repeat(DESCRIPTION_LIMIT);
    const attempts = Array.from({ length: 19 }, () => ({
      description: wide,
      train: 'positives 99/99, negatives 99/99',
      outcome: 'rejected: no significant improvement on train (p = 0.999)',
    }));
    const prompt = rewritePrompt({
      ...REWRITE,
      body: '😀'.repeat(BODY_LIMIT),
      current: wide,
      attempts,
    });
    expect(bytes(prompt)).toBeLessThanOrEqual(PROMPT_MAX_BYTES);
    expect(readRewritePrompt(prompt)?.attempts).toHaveLength(19);
    expect(prompt).toContain('[2 of 2 failing queries left out');
    expect(prompt).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
  });
});

describe('readRewritePrompt', () => {
  it('reads back the parts, the failing queries and the attempts, as sent', () => {
    expect(readRewritePrompt(rewritePrompt(REWRITE))).toEqual({
      skillName: 'release-notes',
      body: '# Release notes',
      current: 'Writes release notes.',
      failing: [
        { shouldTrigger: true, hits: 1, runs: 4, query: 'turn the merged PRs into a changelog' },
        { shouldTrigger: false, hits: 3, runs: 4, query: 'write a commit message · short' },
      ],
      attempts: [
        {
          description: 'Drafts release notes from PRs.',
          train: 'positives 14/20, negatives 3/20',
          outcome: 'rejected: no significant improvement on train (p = 0.31)',
        },
      ],
    });
  });

  it('several attempts are read in order', () => {
    const attempts = [1, 2, 3].map((n) => ({ description: `try ${n}`, train: `t${n}`, outcome: `o${n}` }));
    expect(readRewritePrompt(rewritePrompt({ ...REWRITE, attempts }))?.attempts).toEqual(attempts);
  });

  it('none and none yet read as empty lists', () => {
    expect(readRewritePrompt(rewritePrompt({ ...REWRITE, failing: [], attempts: [] }))).toMatchObject({
      failing: [],
      attempts: [],
    });
  });

  it('undefined for a draft prompt or a prompt missing a part', () => {
    const prompt = rewritePrompt(REWRITE);
    expect(readRewritePrompt(draftPrompt(DRAFT))).toBeUndefined();
    expect(readRewritePrompt(prompt.replace('<current_description>', '<current>'))).toBeUndefined();
    expect(readRewritePrompt(prompt.replace('<failing_queries>', '<failing>'))).toBeUndefined();
  });
});
