import type { BadInputCase } from './bad-input-cases.js';
import { run } from './cli-cost-input-cases.js';

/**
 * Bad option values and a bad environment, refused before claude is started (exit 1): numbers
 * outside the one grammar or below a setting's floor (src/numeric-settings.ts), path options given
 * empty, a `--baseline-description` that names a file that is not there, a `--junit` path no file
 * can take, a temp folder that does not exist. BAD_INPUT_CASES lists them at its end.
 */

/** `run` without `--claude`, for the cases that give it themselves. */
const runOwnClaude = (...rest: string[]) => ['run', '--skill', '{skill}', '--eval', '{eval}', ...rest];
const improve = (...rest: string[]) => [
  'improve',
  '--skill',
  '{skill}',
  '--eval',
  '{eval}',
  ...rest,
  '--out',
  '{dir}/results',
  '--claude',
  '{claude}',
];
const seconds = 'must be a number of seconds from 5 to 3600; got';

export const CLI_OPTION_INPUT_CASES: readonly BadInputCase[] = [
  {
    id: 'flag-model-other-agent',
    area: 'flags',
    what: '--model codex:gpt-x with claude, the one agent (was sent on as the model id "codex:gpt-x")',
    args: run('--model', 'codex:gpt-x'),
    error: '--model "codex:gpt-x" is for codex, but the agent measured is claude. Fix: --agent codex',
    exit: 1,
  },
  {
    id: 'flag-timeout-hex',
    area: 'flags',
    what: '--timeout 0x10 (hex: was taken as 16 s, while --max-cost-usd 0x10 was refused)',
    args: run('--timeout', '0x10'),
    error: `--timeout ${seconds} "0x10"`,
    flag: '--timeout',
    exit: 1,
  },
  {
    id: 'flag-timeout-below-floor',
    area: 'flags',
    what: '--timeout 0.001 (every run would time out)',
    args: run('--timeout', '0.001'),
    error: `--timeout ${seconds} "0.001"`,
    flag: '--timeout',
    exit: 1,
  },
  {
    id: 'flag-ask-timeout-exponent',
    area: 'flags',
    what: 'improve --ask-timeout 1e3 (an exponent)',
    args: improve('--ask-timeout', '1e3'),
    error: `--ask-timeout ${seconds} "1e3"`,
    flag: '--ask-timeout',
    exit: 1,
  },
  {
    id: 'flag-init-timeout-below-floor',
    area: 'flags',
    what: 'init --timeout 1',
    args: [
      'init',
      '--skill',
      '{skill}',
      '--out',
      '{dir}/draft.json',
      '--timeout',
      '1',
      '--claude',
      '{claude}',
    ],
    error: `--timeout ${seconds} "1"`,
    flag: '--timeout',
    exit: 1,
  },
  {
    id: 'flag-claude-empty',
    area: 'flags',
    what: "--claude '' (was a failed cli gate, exit 2)",
    args: runOwnClaude('--claude', ''),
    error: '--claude: is empty (an empty string names no path). Fix: give --claude a <path>',
    flag: '--claude',
    exit: 1,
  },
  {
    id: 'flag-siblings-empty',
    area: 'flags',
    what: "--siblings '' (would scan the working folder)",
    args: run('--siblings', ''),
    error: '--siblings: is empty (an empty string names no dir). Fix: give --siblings a <dir>',
    flag: '--siblings',
    exit: 1,
  },
  {
    id: 'flag-junit-empty',
    area: 'flags',
    what: "--junit ''",
    args: run('--junit', ''),
    error: '--junit: is empty (an empty string names no file). Fix: give --junit a <file>',
    flag: '--junit',
    exit: 1,
  },
  {
    id: 'flag-baseline-missing-file',
    area: 'flags',
    what: '--baseline-description missing-old.txt (a typo for a file: was measured as a 15-byte text)',
    args: run('--baseline-description', 'missing-old.txt'),
    error:
      '--baseline-description: "missing-old.txt" looks like a file name, but no such file exists; it would be measured as a text of 15 bytes. Fix:',
    flag: '--baseline-description',
    exit: 1,
  },
  {
    id: 'flag-baseline-file-missing',
    area: 'flags',
    what: '--baseline-description-file naming no file',
    args: run('--baseline-description-file', '{dir}/old.txt'),
    error: '{dir}/old.txt: does not exist (--baseline-description-file). Fix:',
    exit: 1,
  },
  {
    id: 'flag-baseline-both-forms',
    area: 'flags',
    what: '--baseline-description and --baseline-description-file together',
    files: { 'old.txt': 'Write HANDOFF.md before the session ends\n' },
    args: run('--baseline-description', 'old text', '--baseline-description-file', '{dir}/old.txt'),
    error: '--baseline-description and --baseline-description-file both name the baseline',
    exit: 1,
  },
  {
    id: 'flag-junit-under-file',
    area: 'flags',
    what: '--junit under a regular file (was found only after every run)',
    files: { 'README.md': '# a file, not a folder\n' },
    args: run('--junit', '{dir}/README.md/x.xml'),
    error: 'cannot write the JUnit XML to {dir}/README.md/x.xml: ENOTDIR',
    exit: 1,
  },
  {
    id: 'flag-junit-folder',
    area: 'flags',
    what: '--junit naming a folder',
    files: { 'junit/.keep': '' },
    args: run('--junit', '{dir}/junit'),
    error: 'cannot write the JUnit XML to {dir}/junit: EISDIR (the path is a folder)',
    exit: 1,
  },
  {
    id: 'env-tmpdir-missing',
    area: 'environment',
    what: 'TMPDIR names a folder that does not exist (was: "Claude CLI could not be started (ENOENT)")',
    env: { TMPDIR: '{dir}/does-not-exist' },
    args: run(),
    error:
      'the temp folder TMPDIR={dir}/does-not-exist does not exist; every run makes its temp project there, so nothing was started. Fix: create it',
    exit: 1,
  },
  {
    id: 'env-tmpdir-file',
    area: 'environment',
    what: 'TMPDIR names a regular file',
    files: { 'a-file': 'not a folder\n' },
    env: { TMPDIR: '{dir}/a-file' },
    args: ['preflight', '--claude', '{claude}'],
    error: 'the temp folder TMPDIR={dir}/a-file is not a folder',
    exit: 1,
  },
];
