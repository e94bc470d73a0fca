import { REPORT_SCHEMA_VERSION } from '../../src/schemas/report.js';
import { improveFixture } from '../fakes/improve-fixture.js';
import { reportFixture } from '../fakes/report-fixture.js';
import { ACTION_CONTEXT_INPUT_CASES } from './action-context-input-cases.js';
import { ACTION_COST_INPUT_CASES } from './action-cost-input-cases.js';
import { CLI_COST_INPUT_CASES } from './cli-cost-input-cases.js';
import { CLI_OPTION_INPUT_CASES } from './cli-option-input-cases.js';
import { INPUT_FILE_CASES } from './input-file-cases.js';

/**
 * The bad-input corpus: every case is a CLI invocation that must stop before anything runs, with
 * exit 1 and a message holding `error`. bad-input.test.ts runs each one; docs/faults.md is
 * rendered from this table. In `args` and file contents, `{dir}` is the case's own folder,
 * `{skill}` a valid skill folder, `{eval}` a valid eval set and `{claude}` a stand-in claude that
 * records being started (it never may be).
 */

export type InputArea =
  | 'eval set'
  | 'SKILL.md'
  | 'report for compare'
  | 'improve report'
  | 'flags'
  | 'price table'
  | 'environment';

export interface BadInputCase {
  id: string;
  area: InputArea;
  what: string;
  /** Files of the case, by path relative to `{dir}`; bytes for content that is not valid text. */
  files?: Record<string, string | Uint8Array>;
  /** Named pipes (FIFOs) of the case, by path relative to `{dir}`, made with mkfifo and never written to. */
  fifos?: string[];
  /** Symbolic links of the case: path relative to `{dir}` → the target it points to (`{dir}` filled in). */
  links?: Record<string, string>;
  /** Where the error is printed: stderr, or stdout for `check`, which lists each defect as a `fail` line. */
  stream?: 'stdout';
  /** Variables the case sets in skilltrigger's environment (`{dir}` filled in), over the test's own. */
  env?: Record<string, string>;
  args: string[];
  /** A fragment of stderr, exactly. */
  error: string;
  /** A fragment of the fix, where the message between it and `error` varies (another Node's words). */
  fix?: string;
  /** The flag the message starts with, then `must be …; got "…"` or `: … Fix: …`. */
  flag?: string;
  exit: 1;
}

const run = (...rest: string[]) => ['run', ...rest, '--claude', '{claude}', '--max-retries', '0'];
const withEval = (file: string) => run('--skill', '{skill}', '--eval', `{dir}/${file}`);
const withSkill = (dir = 'skill') => run('--skill', `{dir}/${dir}`, '--eval', '{eval}');
const skillMd = (frontmatter: string) => ({ 'skill/SKILL.md': `${frontmatter}\n\nBody.\n` });
const pair = (a: object, b: object = { query: 'something unrelated', should_trigger: false }) =>
  JSON.stringify([a, b]);
const report = (change: (r: Record<string, unknown>) => void) => {
  const r: Record<string, unknown> = { ...reportFixture() };
  change(r);
  return JSON.stringify(r);
};
const improve = (overrides: Parameters<typeof improveFixture>[1]) =>
  JSON.stringify(improveFixture((t) => t, overrides));
const FIXTURE_FINAL = improveFixture().final;
const apply = ['improve', '--apply', '{dir}/improve.json', '--skill', '{skill}'];
const compare = (file: string) => ['compare', `{dir}/${file}`, '{dir}/good.json'];
const GOOD_REPORT = JSON.stringify(reportFixture());
/** Text with raw bytes spliced in: `bytes('caf', [0xe9], '!')`. */
const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : Buffer.from(p))));
const NEGATIVE_ENTRY = '{"query": "rename this variable", "should_trigger": false}';
/** An AgentV test of the harness's skill (`handoff`), its input written as given. */
const agentvTest = (id: string, input: string, shouldTrigger: boolean) =>
  `  - id: ${id}\n    input: ${input}\n    assertions:\n      - type: skill-trigger\n        skill: handoff\n        should_trigger: ${shouldTrigger}\n`;

export const BAD_INPUT_CASES: readonly BadInputCase[] = [
  // Eval sets.
  {
    id: 'eval-missing',
    area: 'eval set',
    what: 'the eval set does not exist',
    args: withEval('nope.json'),
    error: 'nope.json: the eval set does not exist',
    exit: 1,
  },
  {
    id: 'eval-folder',
    area: 'eval set',
    what: 'the eval set is a folder',
    files: { 'evals.json/.keep': '' },
    args: withEval('evals.json'),
    error: 'evals.json: is a folder, not an eval set',
    exit: 1,
  },
  {
    id: 'eval-empty-file',
    area: 'eval set',
    what: 'empty file',
    files: { 'evals.json': '\n' },
    args: withEval('evals.json'),
    error: 'evals.json: the eval set is empty',
    exit: 1,
  },
  {
    id: 'eval-json-syntax',
    area: 'eval set',
    what: 'JSON with a trailing comma',
    files: { 'evals.json': '[\n  {"query": "a", "should_trigger": true},\n]\n' },
    args: withEval('evals.json'),
    error: 'is not valid JSON',
    exit: 1,
  },
  {
    id: 'eval-json-object',
    area: 'eval set',
    what: 'a JSON object instead of an array',
    files: { 'evals.json': '{"query": "a", "should_trigger": true}' },
    args: withEval('evals.json'),
    error: 'must be a JSON array of entries, got an object with keys query, should_trigger',
    exit: 1,
  },
  {
    id: 'eval-skill-creator-evals',
    area: 'eval set',
    what: "skill-creator's output-quality evals.json",
    files: { 'evals.json': '{"skill_name": "handoff", "evals": []}' },
    args: withEval('evals.json'),
    error: "looks like skill-creator's evals/evals.json",
    exit: 1,
  },
  {
    id: 'eval-empty-array',
    area: 'eval set',
    what: 'an empty array',
    files: { 'evals.json': '[]' },
    args: withEval('evals.json'),
    error: 'the eval set has no entries',
    exit: 1,
  },
  {
    id: 'eval-entry-string',
    area: 'eval set',
    what: 'an entry that is a bare string',
    files: { 'evals.json': '[{"query": "write the handoff", "should_trigger": true}, "just text"]' },
    args: withEval('evals.json'),
    error: '(entry #2): is the string "just text", not an object',
    exit: 1,
  },
  {
    id: 'eval-query-renamed',
    area: 'eval set',
    what: '"prompt" where "query" belongs',
    files: { 'evals.json': pair({ prompt: 'write the handoff', should_trigger: true }) },
    args: withEval('evals.json'),
    error: 'query is missing. Fix: rename "prompt" to "query"',
    exit: 1,
  },
  {
    id: 'eval-query-number',
    area: 'eval set',
    what: 'a query that is a number',
    files: { 'evals.json': pair({ query: 42, should_trigger: true }) },
    args: withEval('evals.json'),
    error: 'query must be text, got number 42',
    exit: 1,
  },
  {
    id: 'eval-query-blank',
    area: 'eval set',
    what: 'a blank query',
    files: { 'evals.json': pair({ query: '   ', should_trigger: true }) },
    args: withEval('evals.json'),
    error: 'query is empty',
    exit: 1,
  },
  {
    id: 'eval-query-nul',
    area: 'eval set',
    what: 'a NUL byte in a query',
    files: { 'evals.json': pair({ query: 'write\u0000the handoff', should_trigger: true }) },
    args: withEval('evals.json'),
    error: 'query contains the control character U+0000',
    exit: 1,
  },
  {
    id: 'eval-trigger-quoted',
    area: 'eval set',
    what: 'should_trigger "false" in quotes',
    files: {
      'evals.json': pair(
        { query: 'write the handoff', should_trigger: true },
        { query: 'b', should_trigger: 'false' },
      ),
    },
    args: withEval('evals.json'),
    error: 'should_trigger is the string "false", not a boolean. Fix: write false without quotes',
    exit: 1,
  },
  {
    id: 'eval-trigger-missing',
    area: 'eval set',
    what: 'should_trigger missing',
    files: { 'evals.json': pair({ query: 'write the handoff' }) },
    args: withEval('evals.json'),
    error: '(entry #1): should_trigger is missing',
    exit: 1,
  },
  {
    id: 'eval-trigger-number',
    area: 'eval set',
    what: 'should_trigger 1',
    files: { 'evals.json': pair({ query: 'write the handoff', should_trigger: 1 }) },
    args: withEval('evals.json'),
    error: 'should_trigger must be true or false, got number 1',
    exit: 1,
  },
  {
    id: 'eval-trigger-camel-case',
    area: 'eval set',
    what: 'shouldTrigger instead of should_trigger',
    files: { 'evals.json': pair({ query: 'write the handoff', shouldTrigger: true }) },
    args: withEval('evals.json'),
    error: 'uses "shouldTrigger"; the key is "should_trigger"',
    exit: 1,
  },
  {
    id: 'eval-duplicate-query',
    area: 'eval set',
    what: 'the same query twice',
    files: {
      'evals.json': JSON.stringify([
        { query: 'write the handoff', should_trigger: true },
        { query: 'write the handoff', should_trigger: false },
      ]),
    },
    args: withEval('evals.json'),
    error: '(entry #2): the same prompt as entry #1',
    exit: 1,
  },
  {
    id: 'eval-no-negatives',
    area: 'eval set',
    what: 'positives only',
    files: { 'evals.json': pair({ query: 'a', should_trigger: true }, { query: 'b', should_trigger: true }) },
    args: withEval('evals.json'),
    error: 'no entry has should_trigger false (all 2 are positives)',
    exit: 1,
  },
  {
    id: 'eval-no-positives',
    area: 'eval set',
    what: 'negatives only',
    files: { 'evals.json': pair({ query: 'a', should_trigger: false }) },
    args: withEval('evals.json'),
    error: 'no entry has should_trigger true (all 2 are negatives)',
    exit: 1,
  },
  {
    id: 'eval-bad-id',
    area: 'eval set',
    what: 'an id with a space and Markdown in it',
    files: { 'evals.json': pair({ id: 'has *space*', query: 'a', should_trigger: true }) },
    args: withEval('evals.json'),
    error: 'id "has *space*" is not a plain identifier',
    exit: 1,
  },
  {
    id: 'eval-duplicate-id',
    area: 'eval set',
    what: 'two entries with one id',
    files: {
      'evals.json': pair(
        { id: 'q', query: 'a', should_trigger: true },
        { id: 'q', query: 'b', should_trigger: false },
      ),
    },
    args: withEval('evals.json'),
    error: 'id "q" is also the id of entry #1',
    exit: 1,
  },
  {
    id: 'eval-unknown-format',
    area: 'eval set',
    what: 'a .txt file of prose',
    files: { 'evals.txt': 'write the handoff\nsomething else\n' },
    args: withEval('evals.txt'),
    error: 'cannot tell which eval-set format this is',
    exit: 1,
  },
  {
    id: 'eval-csv-no-trigger-column',
    area: 'eval set',
    what: 'CSV without should_trigger',
    files: { 'evals.csv': 'id,query\na,write the handoff\n' },
    args: withEval('evals.csv'),
    error: 'has no "should_trigger" column',
    exit: 1,
  },
  {
    id: 'eval-csv-two-query-columns',
    area: 'eval set',
    what: 'CSV with both query and prompt',
    files: { 'evals.csv': 'query,prompt,should_trigger\na,b,true\n' },
    args: withEval('evals.csv'),
    error: 'has both a "query" and a "prompt" column',
    exit: 1,
  },
  {
    id: 'eval-csv-unquoted-comma',
    area: 'eval set',
    what: 'CSV row with an unquoted comma',
    files: { 'evals.csv': 'query,should_trigger\nwrite, then hand off,true\nb,false\n' },
    args: withEval('evals.csv'),
    error: 'has 3 field(s), the header has 2',
    exit: 1,
  },
  {
    id: 'eval-csv-bad-boolean',
    area: 'eval set',
    what: 'CSV should_trigger "maybe"',
    files: { 'evals.csv': 'query,should_trigger\na,maybe\nb,false\n' },
    args: withEval('evals.csv'),
    error: 'should_trigger is "maybe"',
    exit: 1,
  },
  {
    id: 'eval-needs-context-quoted',
    area: 'eval set',
    what: 'needs_context "true" in quotes',
    files: {
      'evals.json': pair(
        { query: 'write the handoff', should_trigger: true, needs_context: 'true' },
        { query: 'b', should_trigger: false },
      ),
    },
    args: withEval('evals.json'),
    error: 'needs_context is the string "true", not a boolean. Fix: write true without quotes',
    exit: 1,
  },
  {
    id: 'eval-split-unknown',
    area: 'eval set',
    what: 'split neither train nor holdout',
    files: {
      'evals.json': pair(
        { query: 'write the handoff', should_trigger: true, split: 'dev' },
        { query: 'b', should_trigger: false },
      ),
    },
    args: withEval('evals.json'),
    error: 'split must be train or holdout, got the string "dev"',
    exit: 1,
  },
  {
    id: 'eval-csv-needs-context-bad',
    area: 'eval set',
    what: 'CSV needs_context "maybe"',
    files: { 'evals.csv': 'query,should_trigger,needs_context\na,true,maybe\nb,false,\n' },
    args: withEval('evals.csv'),
    error: 'needs_context must be true or false, got the string "maybe"',
    exit: 1,
  },
  {
    id: 'eval-csv-open-quote',
    area: 'eval set',
    what: 'CSV with a quote never closed',
    files: { 'evals.csv': 'query,should_trigger\n"a,true\nb,false\n' },
    args: withEval('evals.csv'),
    error: 'is not valid CSV',
    exit: 1,
  },
  {
    id: 'eval-yaml-syntax',
    area: 'eval set',
    what: 'EVAL.yaml with broken indentation',
    files: { 'EVAL.yaml': 'tests:\n  - id: a\n   input: x\n' },
    args: withEval('EVAL.yaml'),
    error: 'is not valid YAML',
    exit: 1,
  },
  {
    id: 'eval-yaml-no-tests',
    area: 'eval set',
    what: 'EVAL.yaml without tests:',
    files: { 'EVAL.yaml': 'name: handoff evals\n' },
    args: withEval('EVAL.yaml'),
    error: 'must be an AgentV EVAL.yaml, a mapping with a "tests:" list',
    exit: 1,
  },
  {
    id: 'eval-yaml-tests-not-list',
    area: 'eval set',
    what: 'tests: is a mapping',
    files: { 'EVAL.yaml': 'tests:\n  a: 1\n' },
    args: withEval('EVAL.yaml'),
    error: '"tests" must be a list, got an object',
    exit: 1,
  },
  {
    id: 'eval-yaml-other-skill',
    area: 'eval set',
    what: 'every assertion names another skill',
    files: {
      'EVAL.yaml':
        'tests:\n  - id: a\n    input: x\n    assertions:\n      - {type: skill-trigger, skill: pdf, should_trigger: true}\n',
    },
    args: withEval('EVAL.yaml'),
    error: 'no test has a trigger assertion naming the skill "handoff" (the trigger assertions name: "pdf")',
    exit: 1,
  },
  {
    id: 'eval-yaml-disagree',
    area: 'eval set',
    what: 'two assertions of one test disagree',
    files: {
      'EVAL.yaml':
        'tests:\n  - id: a\n    input: x\n    assertions:\n      - {type: skill-used, value: handoff}\n      - {type: not-skill-used, value: handoff}\n',
    },
    args: withEval('EVAL.yaml'),
    error: 'its assertions disagree about whether "handoff" should trigger',
    exit: 1,
  },
  {
    id: 'eval-yaml-no-user-message',
    area: 'eval set',
    what: 'input messages without a user message',
    files: {
      'EVAL.yaml':
        'tests:\n  - id: a\n    input: [{role: system, content: hi}]\n    assertions: [{type: skill-trigger, skill: handoff}]\n',
    },
    args: withEval('EVAL.yaml'),
    error: 'input is a list of messages with no role: user message',
    exit: 1,
  },
  {
    id: 'eval-yaml-alias-bomb',
    area: 'eval set',
    what: 'YAML aliases that expand to millions of nodes',
    files: {
      'EVAL.yaml': `${['a0: &a0 [x, x, x, x, x, x, x, x, x, x]', ...Array.from({ length: 8 }, (_, i) => `a${i + 1}: &a${i + 1} [${Array(10).fill(`*a${i}`).join(', ')}]`)].join('\n')}\ntests: []\n`,
    },
    args: withEval('EVAL.yaml'),
    error: 'EVAL.yaml: the YAML cannot be read: Excessive alias count',
    exit: 1,
  },
  {
    id: 'eval-query-too-long',
    area: 'eval set',
    what: 'a 200 KiB prompt (over the 128 KiB the system takes as one argument)',
    files: { 'evals.json': pair({ query: 'x'.repeat(200 * 1024), should_trigger: true }) },
    args: withEval('evals.json'),
    error:
      'evals.json:line 1 (entry #1): query is 200 KiB (204800 bytes); claude takes the prompt as one command-line argument',
    exit: 1,
  },
  {
    id: 'eval-slash-skill-name',
    area: 'eval set',
    what: 'a prompt that starts with /<skill name>',
    files: { 'evals.json': pair({ query: '/handoff write the notes', should_trigger: true }) },
    args: withEval('evals.json'),
    error: 'the prompt starts with "/handoff", which Claude Code expands into the skill itself',
    exit: 1,
  },
  {
    id: 'eval-slash-stub-name',
    area: 'eval set',
    what: 'a prompt that starts with /<stub name>',
    files: {
      'evals.json': pair(
        { query: 'what changed?', should_trigger: false },
        { query: '/handoff-stub-0a1b2c3d now', should_trigger: true },
      ),
    },
    args: withEval('evals.json'),
    error: 'the prompt starts with "/handoff-stub-0a1b2c3d", which Claude Code expands',
    exit: 1,
  },
  {
    id: 'eval-json-duplicate-key',
    area: 'eval set',
    what: 'JSON with the same key twice in an entry ("should_trigger": true, "should_trigger": false)',
    files: {
      'evals.json': `[\n  {"query": "write the handoff", "should_trigger": true, "should_trigger": false},\n  ${NEGATIVE_ENTRY}\n]\n`,
    },
    args: withEval('evals.json'),
    error: 'evals.json:line 2 (entry #1): has the key "should_trigger" twice (first at line 2)',
    exit: 1,
  },
  {
    id: 'eval-json-invalid-utf8',
    area: 'eval set',
    what: 'JSON with a Latin-1 byte (invalid UTF-8)',
    files: {
      'evals.json': bytes(
        '[\n  {"query": "caf',
        [0xe9],
        ' notes for the handoff", "should_trigger": true},\n  ',
        NEGATIVE_ENTRY,
        '\n]\n',
      ),
    },
    args: withEval('evals.json'),
    error: 'evals.json:line 2: is not valid UTF-8: byte 18 (E9) does not start a valid character',
    exit: 1,
  },
  {
    id: 'eval-yaml-invalid-utf8',
    area: 'eval set',
    what: 'EVAL.yaml with a Latin-1 byte (invalid UTF-8)',
    files: {
      'EVAL.yaml': bytes(
        'tests:\n',
        agentvTest('one', 'write the handoff', true),
        '  - id: two\n    input: Stra',
        [0xdf],
        'e\n',
      ),
    },
    args: withEval('EVAL.yaml'),
    error: 'EVAL.yaml:line 9: is not valid UTF-8',
    exit: 1,
  },
  {
    id: 'eval-csv-invalid-utf8',
    area: 'eval set',
    what: 'CSV cut in the middle of a character (invalid UTF-8)',
    files: {
      'evals.csv': bytes(
        'id,should_trigger,prompt\na,true,write the handoff\nb,false,rename this ',
        [0xe2, 0x82],
        '\n',
      ),
    },
    args: withEval('evals.csv'),
    error: 'evals.csv:line 3: is not valid UTF-8',
    exit: 1,
  },
  {
    id: 'eval-json-lone-surrogate',
    area: 'eval set',
    what: 'JSON with a lone surrogate escape ("\\ud83d" without its pair)',
    files: {
      'evals.json': `[\n  {"query": "ship it \\ud83d now", "should_trigger": true},\n  ${NEGATIVE_ENTRY}\n]\n`,
    },
    args: withEval('evals.json'),
    error: 'evals.json:line 2 (entry #1): query contains U+D83D, half of a UTF-16 surrogate pair',
    exit: 1,
  },
  {
    id: 'eval-yaml-lone-surrogate',
    area: 'eval set',
    what: 'EVAL.yaml with a lone surrogate escape',
    files: {
      'EVAL.yaml': `tests:\n${agentvTest('one', '"write the handoff \\udc00"', true)}${agentvTest('two', 'rename this variable', false)}`,
    },
    args: withEval('EVAL.yaml'),
    error: 'input contains U+DC00, half of a UTF-16 surrogate pair',
    exit: 1,
  },
  // SKILL.md.
  {
    id: 'skill-folder-missing',
    area: 'SKILL.md',
    what: 'the skill folder does not exist',
    args: withSkill('nope'),
    error: 'nope: the skill folder does not exist',
    exit: 1,
  },
  {
    id: 'skill-no-skill-md',
    area: 'SKILL.md',
    what: 'a folder without SKILL.md',
    files: { 'skill/README.md': '# hi\n' },
    args: withSkill(),
    error: 'has no SKILL.md',
    exit: 1,
  },
  {
    id: 'skill-lowercase-name',
    area: 'SKILL.md',
    what: 'skill.md in lower case',
    files: { 'skill/skill.md': '---\ndescription: x\n---\n' },
    args: withSkill(),
    error: 'has skill.md but no SKILL.md',
    exit: 1,
  },
  {
    id: 'skill-not-a-folder',
    area: 'SKILL.md',
    what: '--skill names a file other than SKILL.md',
    files: { 'README.md': '# hi\n' },
    args: run('--skill', '{dir}/README.md', '--eval', '{eval}'),
    error: 'README.md: is a file, not a skill folder',
    exit: 1,
  },
  {
    id: 'skill-no-frontmatter',
    area: 'SKILL.md',
    what: 'no frontmatter',
    files: { 'skill/SKILL.md': '# Handoff\n\nWrite the handoff.\n' },
    args: withSkill(),
    error: 'SKILL.md:line 1: has no YAML frontmatter',
    exit: 1,
  },
  {
    id: 'skill-frontmatter-unclosed',
    area: 'SKILL.md',
    what: 'frontmatter never closed',
    files: { 'skill/SKILL.md': '---\nname: skill\ndescription: x\n' },
    args: withSkill(),
    error: 'the frontmatter opened by --- on line 1 is never closed',
    exit: 1,
  },
  {
    id: 'skill-frontmatter-empty',
    area: 'SKILL.md',
    what: 'empty frontmatter',
    files: skillMd('---\n---'),
    args: withSkill(),
    error: 'the frontmatter between the --- lines is empty',
    exit: 1,
  },
  {
    id: 'skill-frontmatter-list',
    area: 'SKILL.md',
    what: 'frontmatter that is a list',
    files: skillMd('---\n- a\n- b\n---'),
    args: withSkill(),
    error: 'the frontmatter must be a mapping of keys (name:, description:), got a list',
    exit: 1,
  },
  {
    id: 'skill-no-description',
    area: 'SKILL.md',
    what: 'no description',
    files: skillMd('---\nname: skill\n---'),
    args: withSkill(),
    error: 'the frontmatter has no description',
    exit: 1,
  },
  {
    id: 'skill-description-capitalised',
    area: 'SKILL.md',
    what: 'Description: with a capital D',
    files: skillMd('---\nname: skill\nDescription: Write the handoff\n---'),
    args: withSkill(),
    error: 'rename the key "Description" to "description"',
    exit: 1,
  },
  {
    id: 'skill-description-empty',
    area: 'SKILL.md',
    what: 'description: with nothing after it',
    files: skillMd('---\nname: skill\ndescription:\n---'),
    args: withSkill(),
    error: 'SKILL.md:line 3: description is empty',
    exit: 1,
  },
  {
    id: 'skill-description-list',
    area: 'SKILL.md',
    what: 'description that is a YAML list',
    files: skillMd('---\nname: skill\ndescription: [write, handoff]\n---'),
    args: withSkill(),
    error: 'description must be text, got a list',
    exit: 1,
  },
  {
    id: 'skill-description-escape',
    area: 'SKILL.md',
    what: 'a description holding ESC (a terminal colour code)',
    files: skillMd(
      '---\nname: skill\ndescription: "Write \\e[31mHANDOFF.md\\e[0m for the next session"\n---',
    ),
    args: withSkill(),
    error: 'description contains the control character U+001B',
    exit: 1,
  },
  {
    id: 'skill-description-bell',
    area: 'SKILL.md',
    what: 'a description holding BEL',
    files: skillMd('---\nname: skill\ndescription: "Write HANDOFF.md\\a now"\n---'),
    args: withSkill(),
    error: 'description contains the control character U+0007',
    exit: 1,
  },
  {
    id: 'skill-description-nul',
    area: 'SKILL.md',
    what: 'a description holding NUL',
    files: skillMd('---\nname: skill\ndescription: "Write HANDOFF.md\\0 now"\n---'),
    args: withSkill(),
    error: 'description contains the control character U+0000',
    exit: 1,
  },
  {
    id: 'skill-when-to-use-control',
    area: 'SKILL.md',
    what: 'a when_to_use holding a C0 control (U+0001)',
    files: skillMd(
      '---\nname: skill\ndescription: Write HANDOFF.md\nwhen_to_use: "At the end\\x01 of a session"\n---',
    ),
    args: withSkill(),
    error: 'when_to_use contains the control character U+0001',
    exit: 1,
  },
  {
    id: 'skill-name-tostring',
    area: 'SKILL.md',
    what: 'name: a mapping whose key is toString',
    files: skillMd('---\nname:\n  toString: []\ndescription: Write HANDOFF.md\n---'),
    args: withSkill(),
    error: 'name must be text, got an object',
    exit: 1,
  },
  {
    id: 'skill-description-tostring',
    area: 'SKILL.md',
    what: 'description: a mapping whose key is toString',
    files: skillMd('---\nname: skill\ndescription:\n  toString: 1\n---'),
    args: withSkill(),
    error: 'description must be text, got an object',
    exit: 1,
  },
  {
    id: 'skill-description-angle-brackets',
    area: 'SKILL.md',
    what: 'a description with <placeholder>',
    files: skillMd('---\nname: skill\ndescription: "Write <file> for the next session"\n---'),
    args: withSkill(),
    error: 'description contains "<" and ">"',
    exit: 1,
  },
  {
    id: 'skill-name-invalid',
    area: 'SKILL.md',
    what: 'a name with capitals and a space',
    files: skillMd('---\nname: My Skill\ndescription: Write the handoff\n---'),
    args: withSkill(),
    error: 'name "My Skill" contains "M"',
    exit: 1,
  },
  {
    id: 'skill-folder-name-invalid',
    area: 'SKILL.md',
    what: 'no name, and a folder name that cannot be one',
    files: { 'Bad_Folder/SKILL.md': '---\ndescription: Write the handoff\n---\n' },
    args: withSkill('Bad_Folder'),
    error: 'the frontmatter has no name, and the folder name "Bad_Folder"',
    exit: 1,
  },
  {
    id: 'skill-duplicate-key',
    area: 'SKILL.md',
    what: 'description given twice',
    files: skillMd('---\nname: skill\ndescription: one\ndescription: two\n---'),
    args: withSkill(),
    error: 'the frontmatter is not valid YAML',
    exit: 1,
  },
  {
    id: 'skill-when-to-use-list',
    area: 'SKILL.md',
    what: 'when_to_use that is a list',
    files: skillMd('---\nname: skill\ndescription: Write the handoff\nwhen_to_use: [a, b]\n---'),
    args: withSkill(),
    error: 'when_to_use must be text, got a list',
    exit: 1,
  },
  {
    id: 'skill-alias-bomb',
    area: 'SKILL.md',
    what: 'frontmatter aliases that expand to millions of nodes',
    files: skillMd(
      `---\n${['a0: &a0 [x, x, x, x, x, x, x, x, x, x]', ...Array.from({ length: 8 }, (_, i) => `a${i + 1}: &a${i + 1} [${Array(10).fill(`*a${i}`).join(', ')}]`)].join('\n')}\ndescription: x\n---`,
    ),
    args: withSkill(),
    error: 'SKILL.md: the YAML cannot be read: Excessive alias count',
    exit: 1,
  },
  {
    id: 'skill-frontmatter-many-keys',
    area: 'SKILL.md',
    what: 'a frontmatter of 90,000 keys (889 KB, under the file limit)',
    files: skillMd(
      `---\nname: skill\ndescription: Write HANDOFF.md\n${Array.from({ length: 90_000 }, (_, i) => `k${i}: v`).join('\n')}\n---`,
    ),
    args: withSkill(),
    error: 'the frontmatter holds about 90002 keys, more than the 500 skilltrigger reads',
    exit: 1,
  },
  // Reports given to compare.
  {
    id: 'report-missing',
    area: 'report for compare',
    what: 'the report does not exist',
    files: { 'good.json': GOOD_REPORT },
    args: compare('nope.json'),
    error: 'nope.json: no such file',
    exit: 1,
  },
  {
    id: 'report-no-shared-agent',
    area: 'report for compare',
    what: 'a Codex-only report against a Claude-only one (no agent in common)',
    files: {
      'good.json': GOOD_REPORT,
      'codex.json': report((r) => {
        r.cli = { version: '0.169.0' };
        r.agents = [{ name: 'codex', version: '0.169.0' }];
      }),
    },
    args: compare('codex.json'),
    error: 'codex.json and good.json have no agent in common (codex.json: codex; good.json: claude)',
    exit: 1,
  },
  {
    id: 'report-folder',
    area: 'report for compare',
    what: 'a folder instead of a report',
    files: { 'good.json': GOOD_REPORT, 'reports/.keep': '' },
    args: compare('reports'),
    error: 'reports: is a folder, not a report',
    exit: 1,
  },
  {
    id: 'report-empty',
    area: 'report for compare',
    what: 'an empty file',
    files: { 'good.json': GOOD_REPORT, 'a.json': '' },
    args: compare('a.json'),
    error: 'the file is empty; measure again with `skilltrigger run`',
    exit: 1,
  },
  {
    id: 'report-not-json',
    area: 'report for compare',
    what: 'the Markdown rendering given instead of the JSON',
    files: { 'good.json': GOOD_REPORT, 'a.md': '# skilltrigger report\n' },
    args: compare('a.md'),
    error: 'a.md: not valid JSON',
    exit: 1,
  },
  {
    id: 'report-array',
    area: 'report for compare',
    what: 'a JSON array',
    files: { 'good.json': GOOD_REPORT, 'a.json': '[]' },
    args: compare('a.json'),
    error: 'not a skilltrigger report: expected a JSON object, got an array',
    exit: 1,
  },
  {
    id: 'report-eval-set',
    area: 'report for compare',
    what: 'an eval set given instead of a report',
    files: { 'good.json': GOOD_REPORT, 'a.json': '{"query": "a", "should_trigger": true}' },
    args: compare('a.json'),
    error: 'not a skilltrigger report: it has no "schema" field',
    exit: 1,
  },
  {
    id: 'report-foreign-schema',
    area: 'report for compare',
    what: 'another tool’s schema',
    files: {
      'good.json': GOOD_REPORT,
      'a.json': report((r) => Object.assign(r, { schema: 'promptfoo/result' })),
    },
    args: compare('a.json'),
    error: 'its "schema" is "promptfoo/result", not "skilltrigger/report"',
    exit: 1,
  },
  {
    id: 'report-newer',
    area: 'report for compare',
    what: 'written by a newer skilltrigger',
    files: {
      'good.json': GOOD_REPORT,
      'a.json': report((r) => Object.assign(r, { schemaVersion: REPORT_SCHEMA_VERSION + 1 })),
    },
    args: compare('a.json'),
    error: 'written by a newer skilltrigger',
    exit: 1,
  },
  {
    id: 'report-older',
    area: 'report for compare',
    what: 'written by an older skilltrigger',
    files: { 'good.json': GOOD_REPORT, 'a.json': report((r) => Object.assign(r, { schemaVersion: 0 })) },
    args: compare('a.json'),
    error: 'written by an older skilltrigger',
    exit: 1,
  },
  {
    id: 'report-bad-field',
    area: 'report for compare',
    what: 'a hand edit that breaks a field',
    files: { 'good.json': GOOD_REPORT, 'a.json': report((r) => Object.assign(r, { verdict: 'maybe' })) },
    args: compare('a.json'),
    error: 'not a valid skilltrigger report: $.verdict',
    exit: 1,
  },
  {
    id: 'report-hits-exceed-runs',
    area: 'report for compare',
    what: 'a hand edit giving a query more hits than runs',
    files: {
      'good.json': GOOD_REPORT,
      'a.json': (() => {
        const r = reportFixture();
        const first = r.candidate.queries[0];
        if (first) first.hits = first.runs + 97;
        return JSON.stringify(r);
      })(),
    },
    args: compare('a.json'),
    error: 'not a valid skilltrigger report: $.candidate.queries[0].hits: 99 hits out of 2 measured runs',
    exit: 1,
  },
  {
    id: 'report-single-not-paired',
    area: 'report for compare',
    what: 'one unpaired report alone',
    files: { 'good.json': GOOD_REPORT },
    args: ['compare', '{dir}/good.json'],
    error: 'this report holds one measurement, not a baseline and a candidate',
    exit: 1,
  },
  // Improve reports given to improve --apply.
  {
    id: 'improve-winner-rejected',
    area: 'improve report',
    what: 'the winner edited to a candidate the session rejected',
    files: {
      'improve.json': improve({ final: { ...FIXTURE_FINAL, winner: 'Use for absolutely every request.' } }),
    },
    args: apply,
    error:
      "improve.json: not a consistent skilltrigger improve report: $.final.winner: not the last accepted candidate's text (iteration 2)",
    exit: 1,
  },
  {
    id: 'improve-adopt-regression',
    area: 'improve report',
    what: 'a holdout labelled regression under the recommendation adopt',
    files: {
      'improve.json': improve({
        final: {
          ...FIXTURE_FINAL,
          holdout: FIXTURE_FINAL.holdout && { ...FIXTURE_FINAL.holdout, label: 'regression' },
        },
      }),
    },
    args: apply,
    error: '$.final.holdout.label: "regression" under the recommendation "adopt"',
    exit: 1,
  },
  {
    id: 'improve-apply-interrupted',
    area: 'improve report',
    what: 'the report of a session a signal interrupted',
    files: {
      'improve.json': improve({
        interrupted: true,
        stopReason: 'interrupted: a signal stopped the session',
        final: { winner: null, holdout: null, recommendation: 'no-verdict', written: false },
      }),
    },
    args: apply,
    error: 'has no verdict: a signal (Ctrl-C, SIGTERM, SIGHUP) interrupted the session',
    exit: 1,
  },
  // Flags.
  {
    id: 'flag-workers',
    area: 'flags',
    what: '--workers (parallel runs)',
    args: [...run('--skill', '{skill}', '--eval', '{eval}'), '--workers', '4'],
    error: 'unknown option --workers: skilltrigger runs strictly one claude at a time',
    exit: 1,
  },
  {
    id: 'flag-unknown-command',
    area: 'flags',
    what: 'an unknown command',
    args: ['measure', '--skill', '{skill}'],
    error: 'unknown command "measure"',
    exit: 1,
  },
  {
    id: 'flag-runs-zero',
    area: 'flags',
    what: '--runs 0',
    args: [...run('--skill', '{skill}', '--eval', '{eval}'), '--runs', '0'],
    error:
      '--runs must be a whole number from 1 to 100, or auto (stop each query once it is settled, at most 6 runs) or auto:<max>; got "0"',
    exit: 1,
  },
  {
    id: 'flag-runs-fraction',
    area: 'flags',
    what: '--runs 2.5',
    args: [...run('--skill', '{skill}', '--eval', '{eval}'), '--runs', '2.5'],
    error:
      '--runs must be a whole number from 1 to 100, or auto (stop each query once it is settled, at most 6 runs) or auto:<max>; got "2.5"',
    exit: 1,
  },
  {
    id: 'flag-runs-no-value',
    area: 'flags',
    what: '--runs with no value',
    args: ['run', '--skill', '{skill}', '--eval', '{eval}', '--claude', '{claude}', '--runs'],
    error: '--runs needs a value: --runs N|auto[:max]',
    exit: 1,
  },
  {
    id: 'flag-timeout-zero',
    area: 'flags',
    what: '--timeout 0',
    args: [...run('--skill', '{skill}', '--eval', '{eval}'), '--timeout', '0'],
    error: '--timeout must be a number of seconds from 5 to 3600; got "0"',
    exit: 1,
  },
  {
    id: 'flag-threshold-one',
    area: 'flags',
    what: '--threshold 1',
    args: [...run('--skill', '{skill}', '--eval', '{eval}'), '--threshold', '1'],
    error: '--threshold must be a number above 0 and at most 0.999; got "1"',
    exit: 1,
  },
  {
    id: 'flag-max-retries-eleven',
    area: 'flags',
    what: '--max-retries 11',
    args: ['run', '--skill', '{skill}', '--eval', '{eval}', '--claude', '{claude}', '--max-retries', '11'],
    error: '--max-retries must be a whole number from 0 to 10; got "11"',
    exit: 1,
  },
  {
    id: 'flag-stub-unknown',
    area: 'flags',
    what: '--stub plugin',
    args: [...run('--skill', '{skill}', '--eval', '{eval}'), '--stub', 'plugin'],
    error: '--stub must be command or skill; got "plugin"',
    exit: 1,
  },
  {
    id: 'flag-model-empty',
    area: 'flags',
    what: '--model ""',
    args: [...run('--skill', '{skill}', '--eval', '{eval}'), '--model', ' '],
    error: '--model must not be empty',
    exit: 1,
  },
  {
    id: 'flag-no-skill',
    area: 'flags',
    what: 'run without --skill',
    args: run('--eval', '{eval}'),
    error: 'run needs --skill <dir>',
    exit: 1,
  },
  {
    id: 'flag-no-eval',
    area: 'flags',
    what: "run without --eval, and no eval set in the skill's folder",
    args: run('--skill', '{skill}'),
    error: "no --eval given, and no eval set in the skill's folder (looked for evals/evals.json, evals.json,",
    exit: 1,
  },
  {
    id: 'flag-positional',
    area: 'flags',
    what: 'a stray argument',
    args: [...run('--skill', '{skill}', '--eval', '{eval}'), 'extra'],
    error: 'run takes no arguments; got "extra"',
    exit: 1,
  },
  {
    id: 'flag-description-brackets',
    area: 'flags',
    what: '--description with <angle brackets>',
    args: [...run('--skill', '{skill}', '--eval', '{eval}'), '--description', 'Write <file> now'],
    error: '--description: description contains "<" and ">"',
    exit: 1,
  },
  {
    id: 'flag-description-control',
    area: 'flags',
    what: '--description holding ESC',
    args: [...run('--skill', '{skill}', '--eval', '{eval}'), '--description', 'Write \u001b[1mnow'],
    error: '--description: description contains the control character U+001B',
    exit: 1,
  },
  {
    id: 'flag-compare-three',
    area: 'flags',
    what: 'compare with three reports',
    args: ['compare', 'a.json', 'b.json', 'c.json'],
    error: 'compare takes at most two reports; got a third: "c.json"',
    exit: 1,
  },
  {
    id: 'flag-compare-none',
    area: 'flags',
    what: 'compare with no report',
    args: ['compare'],
    error: 'compare needs two reports (or one paired report)',
    exit: 1,
  },
  {
    id: 'flag-check-nothing',
    area: 'flags',
    what: 'check with nothing to check',
    args: ['check'],
    error: 'check needs at least one --skill <dir> or --eval <file>',
    exit: 1,
  },
  {
    id: 'flag-out-regular-file',
    area: 'flags',
    what: '--out names a regular file',
    files: { 'results.txt': 'not a folder\n' },
    args: [...run('--skill', '{skill}', '--eval', '{eval}'), '--out', '{dir}/results.txt'],
    error: 'cannot write the report to {dir}/results.txt: EEXIST (the path exists and is not a folder). Fix:',
    exit: 1,
  },
  {
    id: 'flag-out-through-file',
    area: 'flags',
    what: '--out below a regular file',
    files: { 'a-file': 'not a folder\n' },
    args: [...run('--skill', '{skill}', '--eval', '{eval}'), '--out', '{dir}/a-file/results'],
    error: 'cannot write the report to {dir}/a-file/results: ENOTDIR',
    exit: 1,
  },
  {
    id: 'flag-out-empty',
    area: 'flags',
    what: '--out ""',
    args: [...run('--skill', '{skill}', '--eval', '{eval}'), '--out', ''],
    error: '--out: is empty (an empty string names no dir). Fix: give --out a <dir>',
    exit: 1,
  },
  ...CLI_COST_INPUT_CASES,
  ...INPUT_FILE_CASES,
  ...CLI_OPTION_INPUT_CASES,
];

/**
 * Bad Action inputs: each runs the bundled Action (`node dist/index.js`) with one input set as
 * given (the others at their defaults), and must stop with exit 1 before anything runs, its failure
 * naming the input and what it accepts. __tests__/action/bad-inputs.e2e.test.ts runs them and keeps
 * their table in docs/faults.md (`action-input-table`) equal to this list. Kept apart from
 * BAD_INPUT_CASES, whose every case is a CLI invocation.
 */
export interface ActionInputCase {
  id: string;
  /** The input, as action.yml names it. */
  input: string;
  /** Its raw value (what the runner puts in `INPUT_*`). */
  value: string;
  /** Other inputs the case sets beside it (the rest at their defaults). */
  with?: Record<string, string>;
  /** Files written into the workspace first, by path relative to it. */
  files?: Record<string, string>;
  what: string;
  /** A fragment of the step's failure message, exactly. */
  error: string;
  /** A fragment of the fix, where the message between it and `error` varies (another Node's words). */
  fix?: string;
  exit: 1;
}

const wholeRuns = 'input runs: expected a whole number from 1 to 100';
const timeoutSeconds = 'input timeout: expected a number of seconds from 5 to 3600';
const trueFalse = (input: string, value: string) =>
  `input ${input}: expected true or false, got ${JSON.stringify(value)}`;

export const ACTION_INPUT_CASES: readonly ActionInputCase[] = [
  {
    id: 'action-runs-zero',
    input: 'runs',
    value: '0',
    what: 'zero runs',
    error: `${wholeRuns}, got "0"`,
    exit: 1,
  },
  {
    id: 'action-runs-word',
    input: 'runs',
    value: 'two',
    what: 'a word',
    error: `${wholeRuns}, got "two"`,
    exit: 1,
  },
  {
    id: 'action-runs-fraction',
    input: 'runs',
    value: '1.5',
    what: 'a fraction',
    error: `${wholeRuns}, got "1.5"`,
    exit: 1,
  },
  {
    id: 'action-runs-too-many',
    input: 'runs',
    value: '101',
    what: 'above the cap',
    error: `${wholeRuns}, got "101"`,
    exit: 1,
  },
  {
    id: 'action-runs-negative',
    input: 'runs',
    value: '-3',
    what: 'negative',
    error: `${wholeRuns}, got "-3"`,
    exit: 1,
  },
  {
    id: 'action-timeout-zero',
    input: 'timeout',
    value: '0',
    what: 'zero seconds',
    error: `${timeoutSeconds}, got "0"`,
    exit: 1,
  },
  {
    id: 'action-timeout-below-floor',
    input: 'timeout',
    value: '1',
    what: 'below the 5 s floor (every run would time out)',
    error: `${timeoutSeconds}, got "1"`,
    exit: 1,
  },
  {
    id: 'action-timeout-unit',
    input: 'timeout',
    value: '30s',
    what: 'with a unit',
    error: `${timeoutSeconds}, got "30s"`,
    exit: 1,
  },
  {
    id: 'action-timeout-too-long',
    input: 'timeout',
    value: '3601',
    what: 'above an hour',
    error: `${timeoutSeconds}, got "3601"`,
    exit: 1,
  },
  {
    id: 'action-baseline-unknown',
    input: 'baseline',
    value: 'always',
    what: 'an unknown mode',
    error: 'input baseline: expected cache, cache-only, measure or none, got "always"',
    exit: 1,
  },
  {
    id: 'action-baseline-case',
    input: 'baseline',
    value: 'Cache',
    what: 'a mode in the wrong case',
    error: 'input baseline: expected cache, cache-only, measure or none, got "Cache"',
    exit: 1,
  },
  {
    id: 'action-model-space',
    input: 'model',
    value: 'claude sonnet',
    what: 'a model name with a space',
    error:
      'input model: expected a model name without spaces, such as claude-sonnet-4-5, got "claude sonnet"',
    exit: 1,
  },
  {
    id: 'action-model-newline',
    input: 'model',
    value: 'claude-sonnet-4-5\nclaude-opus-4',
    what: 'two model names on two lines',
    error:
      'input model: expected a model name without spaces, such as claude-sonnet-4-5, got "claude-sonnet-4-5\\nclaude-opus-4"',
    exit: 1,
  },
  {
    id: 'action-version-latest',
    input: 'claude-code-version',
    value: 'latest',
    what: 'a tag instead of a version',
    error: 'input claude-code-version: expected an exact version such as 2.1.328',
    exit: 1,
  },
  {
    id: 'action-version-range',
    input: 'claude-code-version',
    value: '^2.1.0',
    what: 'a range',
    error:
      'input claude-code-version: expected an exact version such as 2.1.328 (ranges and tags like "latest" would make the cached install lie about its version), got "^2.1.0"',
    exit: 1,
  },
  {
    id: 'action-skills-only-excludes',
    input: 'skills',
    value: '!**/SKILL.md',
    what: 'only exclusions',
    error:
      'input skills: expected at least one glob of SKILL.md files, such as **/SKILL.md, got "!**/SKILL.md"',
    exit: 1,
  },
  {
    id: 'action-skills-parent',
    input: 'skills',
    value: '../other/SKILL.md',
    what: 'a glob leaving the repository',
    error:
      'input skills: expected globs relative to the repository root (no leading / and no ..), got "../other/SKILL.md"',
    exit: 1,
  },
  {
    id: 'action-skills-absolute',
    input: 'skills',
    value: '/home/runner/skills/*/SKILL.md',
    what: 'an absolute glob',
    error:
      'input skills: expected globs relative to the repository root (no leading / and no ..), got "/home/runner/skills/*/SKILL.md"',
    exit: 1,
  },
  {
    id: 'action-skills-brace',
    input: 'skills',
    value: 'skills/{pdf,docx/SKILL.md',
    what: 'an unclosed {',
    error:
      'input skills: expected globs whose { and } pair up, such as skills/{pdf,docx}/SKILL.md, got "skills/{pdf,docx/SKILL.md"',
    exit: 1,
  },
  {
    id: 'action-skills-backslash',
    input: 'skills',
    value: '.claude\\skills\\*\\SKILL.md',
    what: 'Windows separators',
    error:
      'input skills: expected globs with / between folders (a \\ is never a separator), got ".claude\\\\skills\\\\*\\\\SKILL.md"',
    exit: 1,
  },
  {
    id: 'action-skills-folder',
    input: 'skills',
    value: '.claude/skills',
    what: 'a folder instead of SKILL.md files',
    error:
      'input skills: expected globs that can match a file named SKILL.md, such as .claude/skills/*/SKILL.md or .claude/skills/**, got ".claude/skills"',
    exit: 1,
  },
  {
    id: 'action-evals-absolute',
    input: 'evals',
    value: '/etc/evals.json',
    what: 'an absolute path',
    error:
      'input evals: expected paths relative to the repository root, e.g. {dir}/evals/evals.json (no leading / and no ..), got "/etc/evals.json"',
    exit: 1,
  },
  {
    id: 'action-evals-parent',
    input: 'evals',
    value: '{dir}/../../secrets.json',
    what: 'a path leaving the repository',
    error:
      'input evals: expected paths relative to the repository root, e.g. {dir}/evals/evals.json (no leading / and no ..), got "{dir}/../../secrets.json"',
    exit: 1,
  },
  {
    id: 'action-fail-on-regression-yes',
    input: 'fail-on-regression',
    value: 'yes',
    what: 'yes instead of true',
    error: trueFalse('fail-on-regression', 'yes'),
    exit: 1,
  },
  {
    id: 'action-comment-on',
    input: 'comment',
    value: 'on',
    what: 'on',
    error: trueFalse('comment', 'on'),
    exit: 1,
  },
  {
    id: 'action-skills-all-one',
    input: 'skills-all',
    value: '1',
    what: '1 instead of true',
    error: trueFalse('skills-all', '1'),
    exit: 1,
  },
  {
    id: 'action-allow-conflict-maybe',
    input: 'allow-conflict',
    value: 'maybe',
    what: 'neither true nor false',
    error: trueFalse('allow-conflict', 'maybe'),
    exit: 1,
  },
  {
    id: 'action-allow-pr-target-yes',
    input: 'allow-pull-request-target',
    value: 'yes',
    what: 'yes instead of true',
    error: trueFalse('allow-pull-request-target', 'yes'),
    exit: 1,
  },
  {
    id: 'action-shard-beyond-count',
    input: 'shard',
    value: '4/3',
    what: 'a shard index above the count',
    error:
      'input shard: expected i/n with 1 ≤ i ≤ n ≤ 64, such as 2/3 (or empty, for no sharding), got "4/3"',
    exit: 1,
  },
  {
    id: 'action-shard-zero',
    input: 'shard',
    value: '0/2',
    what: 'shard 0 (shards count from 1)',
    error:
      'input shard: expected i/n with 1 ≤ i ≤ n ≤ 64, such as 2/3 (or empty, for no sharding), got "0/2"',
    exit: 1,
  },
  {
    id: 'action-shard-too-many',
    input: 'shard',
    value: '1/100',
    what: 'more shards than the cap',
    error:
      'input shard: expected i/n with 1 ≤ i ≤ n ≤ 64, such as 2/3 (or empty, for no sharding), got "1/100"',
    exit: 1,
  },
  {
    id: 'action-shard-plain-number',
    input: 'shard',
    value: '2',
    what: 'a number without /n',
    error: 'input shard: expected i/n with 1 ≤ i ≤ n ≤ 64, such as 2/3 (or empty, for no sharding), got "2"',
    exit: 1,
  },
  {
    id: 'action-out-parent',
    input: 'out',
    value: '../outside-the-workspace',
    what: 'a reports folder leaving the workspace (results-dir and prices refuse it too)',
    error:
      'input out: expected a folder relative to the workspace, such as skilltrigger-results (no leading / and no ..), got "../outside-the-workspace"',
    exit: 1,
  },
  {
    id: 'action-out-absolute',
    input: 'out',
    value: '/tmp/skilltrigger-elsewhere',
    what: 'an absolute reports folder',
    error:
      'input out: expected a folder relative to the workspace, such as skilltrigger-results (no leading / and no ..), got "/tmp/skilltrigger-elsewhere"',
    exit: 1,
  },
  {
    id: 'action-mode-unknown',
    input: 'mode',
    value: 'combine',
    what: 'an unknown mode',
    error: 'input mode: expected measure, merge or drift, got "combine"',
    exit: 1,
  },
  {
    id: 'action-results-dir-escapes',
    input: 'results-dir',
    value: '../artifacts',
    what: 'a folder outside the workspace',
    error:
      'input results-dir: expected a folder inside the workspace, such as skilltrigger-results (no ..), got "../artifacts"',
    exit: 1,
  },
  ...ACTION_COST_INPUT_CASES,
  ...ACTION_CONTEXT_INPUT_CASES,
];
