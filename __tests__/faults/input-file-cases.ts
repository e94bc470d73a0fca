import { reportFixture } from '../fakes/report-fixture.js';
import type { BadInputCase } from './bad-input-cases.js';

/**
 * Input files that are not what they seem: a pipe where a file belongs, a report edited
 * by hand, a SKILL.md Claude Code would never list, encodings and YAML features a loader took
 * for data. Same harness and placeholders as bad-input-cases.ts; each case fails on a build
 * without the check it names (a FIFO case hangs there, and the harness kills it).
 */

const run = (...rest: string[]) => ['run', ...rest, '--claude', '{claude}', '--max-retries', '0'];
const withEval = (file: string) => run('--skill', '{skill}', '--eval', `{dir}/${file}`);
const withSkill = (dir = 'skill') => run('--skill', `{dir}/${dir}`, '--eval', '{eval}');
const skillMd = (frontmatter: string) => ({ 'skill/SKILL.md': `${frontmatter}\n\nBody.\n` });
const compare = (file: string) => ['compare', `{dir}/${file}`, '{dir}/good.json'];
const GOOD_REPORT = JSON.stringify(reportFixture());

/** The fixture report with one edit, as a hand edit would leave it. */
const edited = (change: (r: ReturnType<typeof reportFixture>) => void) => {
  const r = structuredClone(reportFixture());
  change(r);
  return JSON.stringify(r, null, 2);
};
const secondQuery = (r: ReturnType<typeof reportFixture>) => {
  const q = r.candidate.queries[1];
  if (!q) throw new Error('the report fixture has fewer than two queries');
  return q;
};

/** An AgentV test of the harness's skill (`handoff`). */
const agentvTest = (id: string, input: string, shouldTrigger: boolean, more = '') =>
  `  - id: ${id}\n${more}    input: ${input}\n    assertions:\n      - type: skill-trigger\n        skill: handoff\n        should_trigger: ${shouldTrigger}\n`;

const SIBLING = '---\nname: linked\n---\n\nA sibling with no description.\n';

export const INPUT_FILE_CASES: readonly BadInputCase[] = [
  // Files that are not regular files.
  {
    id: 'eval-fifo',
    area: 'eval set',
    what: 'the eval set is a named pipe (FIFO) nobody writes to',
    fifos: ['evals.json'],
    args: withEval('evals.json'),
    error:
      'evals.json: is a named pipe (FIFO), not a regular file; skilltrigger reads the eval set only from a regular file',
    exit: 1,
  },
  {
    id: 'eval-device',
    area: 'eval set',
    what: 'the eval set is a device (/dev/zero, endless)',
    args: run('--skill', '{skill}', '--eval', '/dev/zero'),
    error: '/dev/zero: is a device, not a regular file',
    exit: 1,
  },
  {
    id: 'skill-md-fifo-check',
    area: 'SKILL.md',
    what: '`check` on a skill folder whose SKILL.md is a named pipe',
    fifos: ['skill/SKILL.md'],
    args: ['check', '--skill', '{dir}/skill', '--claude', '{claude}'],
    stream: 'stdout',
    error:
      'SKILL.md: is a named pipe (FIFO), not a regular file; skilltrigger reads SKILL.md only from a regular file',
    exit: 1,
  },
  {
    id: 'skill-md-fifo-run',
    area: 'SKILL.md',
    what: '`--skill` naming a SKILL.md that is a named pipe',
    fifos: ['skill/SKILL.md'],
    args: run('--skill', '{dir}/skill/SKILL.md', '--eval', '{eval}'),
    error: 'SKILL.md: is a named pipe (FIFO), not a skill folder or a SKILL.md file',
    exit: 1,
  },
  {
    id: 'report-fifo',
    area: 'report for compare',
    what: 'a report that is a named pipe',
    files: { 'good.json': GOOD_REPORT },
    fifos: ['pipe.json'],
    args: compare('pipe.json'),
    error: 'pipe.json: is a named pipe (FIFO), not a regular file; skilltrigger reads the report only',
    exit: 1,
  },
  {
    id: 'view-fifo',
    area: 'report for compare',
    what: '`view` of a named pipe',
    fifos: ['pipe.json'],
    args: ['view', '{dir}/pipe.json'],
    error:
      'pipe.json: is a named pipe (FIFO), not a regular file; skilltrigger reads the report only from a regular file (reading a pipe waits',
    exit: 1,
  },
  {
    id: 'prices-fifo',
    area: 'price table',
    what: '`--prices` naming a named pipe',
    fifos: ['prices.json'],
    args: run('--skill', '{skill}', '--eval', '{eval}', '--prices', '{dir}/prices.json'),
    error: 'prices.json: is a named pipe (FIFO), not a regular file; skilltrigger reads the price table only',
    exit: 1,
  },
  // Reports edited after they were written.
  {
    id: 'report-hits-edited',
    area: 'report for compare',
    what: "a query's hits edited (1 of 2 made 2 of 2)",
    files: {
      'good.json': GOOD_REPORT,
      'edited.json': edited((r) => {
        secondQuery(r).hits = 2;
      }),
    },
    args: compare('edited.json'),
    error:
      'not a consistent skilltrigger report: $.candidate.queries[1].hits: 2, but its 2 outcomes make it 1',
    exit: 1,
  },
  {
    id: 'report-hits-rate-pass-edited',
    area: 'report for compare',
    what: 'hits, rate, pass and the totals edited together',
    files: {
      'good.json': GOOD_REPORT,
      'edited.json': edited((r) => {
        Object.assign(secondQuery(r), { hits: 2, rate: 1, pass: true });
        r.candidate.totals.positives.triggered += 1;
        r.candidate.totals.passed += 1;
        r.candidate.totals.failed -= 1;
      }),
    },
    args: compare('edited.json'),
    error: '$.candidate.queries[1].hits: 2, but its 2 outcomes make it 1',
    exit: 1,
  },
  {
    id: 'report-outcomes-edited',
    area: 'report for compare',
    what: "a query's outcomes edited (a miss made a hit)",
    files: {
      'good.json': GOOD_REPORT,
      'edited.json': edited((r) => {
        secondQuery(r).outcomes = ['triggered', 'triggered'];
      }),
    },
    args: compare('edited.json'),
    error: '$.candidate.queries[1].hits: 1, but its 2 outcomes make it 2',
    exit: 1,
  },
  {
    id: 'report-verdict-interrupted',
    area: 'report for compare',
    what: '`verdict: ok` on an interrupted run',
    files: {
      'good.json': GOOD_REPORT,
      'edited.json': edited((r) => {
        r.candidate.interrupted = true;
        r.candidate.aborted = true;
      }),
    },
    args: compare('edited.json'),
    error:
      '$.candidate.verdict: "ok", but the run was interrupted ("interrupted": true), so there is no verdict',
    exit: 1,
  },
  // SKILL.md Claude Code does not list, or reads differently.
  {
    id: 'skill-over-listing-limit',
    area: 'SKILL.md',
    what: 'a SKILL.md of 1,000,001 bytes (Claude Code lists up to 1,000,000)',
    files: {
      'skill/SKILL.md': (() => {
        const head = '---\nname: skill\ndescription: Write the handoff\n---\n';
        return `${head}${'x'.repeat(1_000_001 - head.length - 1)}\n`;
      })(),
    },
    args: withSkill(),
    error: 'SKILL.md: is 1,000,001 bytes, and Claude Code does not list a SKILL.md over 1,000,000 bytes',
    exit: 1,
  },
  {
    id: 'skill-over-listing-limit-check',
    area: 'SKILL.md',
    what: '`check` on a SKILL.md over the listing limit',
    files: {
      'skill/SKILL.md': (() => {
        const head = '---\nname: skill\ndescription: Write the handoff\n---\n';
        return `${head}${'x'.repeat(1_200_000)}\n`;
      })(),
    },
    args: ['check', '--skill', '{dir}/skill', '--claude', '{claude}'],
    stream: 'stdout',
    error: 'the model would never see this skill, so there is nothing to measure',
    exit: 1,
  },
  {
    id: 'skill-latin1-description',
    area: 'SKILL.md',
    what: 'a Latin-1 byte (0xE9) in the description',
    files: {
      'skill/SKILL.md': Buffer.from(
        '---\nname: skill\ndescription: Write the caf\xe9 handoff\n---\n\nBody.\n',
        'latin1',
      ),
    },
    args: withSkill(),
    error: 'SKILL.md:line 3: is not valid UTF-8: byte 42 (E9)',
    exit: 1,
  },
  {
    id: 'skill-name-empty-string',
    area: 'SKILL.md',
    what: '`name: ""`',
    files: skillMd('---\nname: ""\ndescription: Write the handoff\n---'),
    args: withSkill(),
    error:
      'name "" is empty. Fix: use lowercase letters, digits and single hyphens, at most 64 characters, e.g. "skill"',
    exit: 1,
  },
  {
    id: 'skill-description-zero-width',
    area: 'SKILL.md',
    what: 'a description made only of zero-width spaces',
    files: skillMd('---\nname: skill\ndescription: "\\u200B\\u200B"\n---'),
    args: withSkill(),
    error: 'description holds only invisible characters (U+200B)',
    exit: 1,
  },
  // Eval sets.
  {
    id: 'eval-zero-width-query',
    area: 'eval set',
    what: 'a query made only of zero-width characters',
    files: {
      'evals.json': JSON.stringify([
        { query: '\u200b\u2060\u200b', should_trigger: true },
        { query: 'rename this variable', should_trigger: false },
      ]),
    },
    args: withEval('evals.json'),
    error: 'query holds only invisible characters (U+200B, U+2060)',
    exit: 1,
  },
  {
    id: 'eval-yaml-merge-not-mapping',
    area: 'eval set',
    what: 'a YAML merge key (`<<:`) whose source is not a mapping',
    files: {
      'EVAL.yaml': `tests:\n${agentvTest('one', 'write the handoff', true, '    <<: [1, 2]\n')}${agentvTest('two', 'rename this variable', false)}`,
    },
    args: withEval('EVAL.yaml'),
    error: 'EVAL.yaml: the YAML cannot be read: Merge sources must be maps or map aliases',
    exit: 1,
  },
  {
    id: 'eval-yaml-too-deep',
    area: 'eval set',
    what: 'YAML nested 50,000 levels deep',
    files: { 'EVAL.yaml': `tests: ${'['.repeat(50_000)}${']'.repeat(50_000)}\n` },
    args: withEval('EVAL.yaml'),
    error: 'EVAL.yaml:line 1: cannot be read: it is nested too deeply for the YAML reader',
    exit: 1,
  },
  {
    id: 'eval-json-utf16',
    area: 'eval set',
    what: 'JSON saved as UTF-16 with a byte-order mark',
    files: {
      'evals.json': Buffer.concat([
        Buffer.from([0xff, 0xfe]),
        Buffer.from(
          JSON.stringify([
            { query: 'write the handoff', should_trigger: true },
            { query: 'rename this variable', should_trigger: false },
          ]),
          'utf16le',
        ),
      ]),
    },
    args: withEval('evals.json'),
    error: 'evals.json: is saved as UTF-16LE (it starts with a UTF-16 byte-order mark), not UTF-8',
    fix: '`iconv -f UTF-16LE -t UTF-8`',
    exit: 1,
  },
  {
    id: 'eval-json-utf16-no-bom',
    area: 'eval set',
    what: 'JSON saved as UTF-16 without a byte-order mark',
    files: {
      'evals.json': Buffer.from(
        JSON.stringify([
          { query: 'write the handoff', should_trigger: true },
          { query: 'rename this variable', should_trigger: false },
        ]),
        'utf16le',
      ),
    },
    args: withEval('evals.json'),
    error: 'evals.json: is saved as UTF-16LE (a NUL byte sits beside every character), not UTF-8',
    exit: 1,
  },
  {
    id: 'eval-json-raw-nul',
    area: 'eval set',
    what: 'a raw NUL byte between JSON tokens (the parser quotes it back)',
    files: {
      'evals.json': Buffer.from(
        '[\u0000{"query": "write the handoff", "should_trigger": true}, {"query": "rename", "should_trigger": false}]',
      ),
    },
    args: withEval('evals.json'),
    error: "is not valid JSON: Unexpected token '\\u0000'",
    exit: 1,
  },
  // Folders of skills.
  {
    id: 'siblings-symlinked-folder',
    area: 'SKILL.md',
    what: 'a symlinked skill folder inside `--siblings` (followed, as Claude Code follows it; a link out of the folder is left out, docs/security.md)',
    files: { 'siblings/.store/linked/SKILL.md': SIBLING },
    links: { 'siblings/linked': '{dir}/siblings/.store/linked' },
    args: run('--skill', '{skill}', '--eval', '{eval}', '--siblings', '{dir}/siblings'),
    error: 'linked/SKILL.md:line 1: the frontmatter has no description',
    exit: 1,
  },
];
