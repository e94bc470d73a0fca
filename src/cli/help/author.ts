/** The help entries of the author's loop: init and improve (help.ts renders them). */
import {
  agentBinOptions,
  agentBinUsage,
  agentChoices,
  agentValues,
  type CommandHelp,
  DEFAULT_BIN,
  defaultBinOption,
  type OptionHelp,
  SHARED_OPTIONS as SHARED,
} from './options.js';

/** `--agent` of an author command: one agent per call (docs/author-loop.md, "On another agent"). */
function authorAgentOption(what: string): OptionHelp {
  return {
    name: 'agent',
    value: agentValues(),
    text: `the agent CLI that ${what}: ${agentChoices()}. One per call`,
  };
}

export const INIT_HELP = {
  summary: 'draft an eval set for a skill through your own agent CLI (claude -p by default)',
  usage: [
    'init --skill <dir> [--out <file>] [--count 20] [--model M] [--timeout 180]',
    `    [--max-retries 2] [--agent ${agentValues()}] [--claude <path>]`,
    `    ${agentBinUsage()}`,
  ],
  options: [
    SHARED.skill,
    {
      name: 'out',
      value: '<file>',
      text: 'where the draft goes (default <dir>/evals/evals.json); an existing file is never overwritten',
    },
    {
      name: 'count',
      value: '<n>',
      text: 'prompts to draft, 4 to 100 (default 20): about half should trigger, half near-misses, ~40% of each held out',
    },
    { name: 'model', value: '<M>', text: 'the model that drafts (default: the CLI default)' },
    {
      name: 'timeout',
      value: '<s>',
      text: 'bound on the drafting call in seconds, 5 to 3600 (default 180)',
    },
    SHARED.maxRetriesBrief,
    authorAgentOption('drafts (default claude)'),
    defaultBinOption(
      `the ${DEFAULT_BIN.bin} to call (default ${DEFAULT_BIN.bin} on PATH or ${DEFAULT_BIN.variable})`,
    ),
    ...agentBinOptions(true),
  ],
  exitCodes: [
    [0, 'the draft was written'],
    [1, 'a usage or input error, a file already there, or an answer that was not an eval set twice'],
    [3, 'no draft: the call was interrupted (Ctrl-C or a signal), timed out or failed; nothing written'],
  ],
  examples: [
    ['Draft 20 prompts beside the skill:', 'skilltrigger init --skill skills/handoff'],
    [
      'Draft 30 with another model, elsewhere:',
      'skilltrigger init --skill skills/handoff --count 30 --model sonnet --out drafts/handoff.json',
    ],
  ],
} as const satisfies CommandHelp;

export const IMPROVE_HELP = {
  summary: 'rewrite the description on significant evidence, checked on the holdout',
  usage: [
    'improve --skill <dir> --eval <file> [--iterations 5] [--runs auto[:max]|N] [--write]',
    '    [--model M] [--timeout 30] [--ask-timeout 180] [--out <dir>]',
    '    [--stub command|skill] [--allow-conflict] [--max-retries 2] [--threshold 0.5]',
    '    [--claude <path>] [--debug] [--max-cost-usd X] [--prices <file>] [--standby N]',
    `    [--context <file>] [--context-fill N] [--agent ${agentValues()}]`,
    `    ${agentBinUsage()} [--memory <file>]...`,
    '    or: --apply <improve-report.json> --skill <dir>',
  ],
  options: [
    SHARED.skill,
    { name: 'eval', value: '<file>', text: 'an eval set with a holdout (split: holdout) (required)' },
    {
      name: 'iterations',
      value: '<n>',
      text: 'rewrites to try at most, 1 to 20 (default 5); each is judged at 0.05 ÷ iterations',
    },
    {
      name: 'runs',
      value: 'auto[:max]|N',
      text: 'runs per query and side (default auto: as many as a query needs)',
    },
    {
      name: 'model',
      value: '<M>',
      text: 'the model measured and asked for rewrites (default: the CLI default)',
    },
    { name: 'timeout', value: '<s>', text: 'per measured run, seconds, 5 to 3600 (default 30)' },
    {
      name: 'max-cost-usd',
      value: '<X>',
      text: 'refuse (exit 1) before anything is measured when the session (every measurement and every rewrite call) is estimated above X US dollars; within it, stop before the step that could pass X (no verdict, exit 3, the improve report written, SKILL.md untouched)',
    },
    {
      name: 'prices',
      value: '<file>',
      text: 'the price table for --max-cost-usd, as for run (docs/cost.md)',
    },
    {
      name: 'context',
      value: '<file>',
      text: "start every measured run (train and holdout, every description) with these earlier turns, as for run; an entry's own context is the more precise (docs/context.md)",
    },
    {
      name: 'memory',
      value: '<file>',
      repeatable: true,
      text: 'install this file of project instructions in every measured run\'s project (train and holdout, every description), as for run (docs/cli.md, "Memory files")',
    },
    {
      name: 'context-fill',
      value: '<N>',
      text: 'start every measured run with N characters (500 to 1000000) of the shipped coding conversation instead, as for run (docs/context.md, "Filling context")',
    },
    { name: 'ask-timeout', value: '<s>', text: 'per rewrite call, seconds, 5 to 3600 (default 180)' },
    {
      name: 'out',
      value: '<dir>',
      text: 'where the improve report goes (default ./skilltrigger-results); it holds the description texts',
    },
    { name: 'stub', value: 'command|skill', text: 'the stub layout, as for run (default command)' },
    {
      name: 'write',
      text: 'replace the description in SKILL.md with a winner that held on the holdout (else SKILL.md is never touched)',
    },
    {
      name: 'apply',
      value: '<improve-report.json>',
      text: "put a finished session's winner (one that held on the holdout) into --skill's SKILL.md: no model call, nothing measured; only when SKILL.md's description is still the session's original (else exit 1), changing only the description; prints before, after and the evidence. Takes only --skill",
    },
    { name: 'allow-conflict', text: 'measure even when an enabled plugin has a skill of the same name' },
    SHARED.maxRetriesBrief,
    { name: 'threshold', value: '<rate>', text: 'the pass threshold of a query (default 0.5)' },
    {
      name: 'standby',
      value: '<N>',
      text: `${DEFAULT_BIN.bin}s started ahead of their runs, as for run: 0 to 4; 0: every run starts cold. Default: 1 (2 with 4 or more cores), fewer when memory is short`,
    },
    authorAgentOption(
      'measures every description and is asked for the rewrites, with its gates and its prices (default claude)',
    ),
    defaultBinOption(
      `the ${DEFAULT_BIN.bin} to run (default ${DEFAULT_BIN.bin} on PATH or ${DEFAULT_BIN.variable})`,
    ),
    ...agentBinOptions(true),
    SHARED.debug,
  ],
  exitCodes: [
    [0, 'the session ran to its end (whatever it recommends); with --apply, the winner was written'],
    [1, "a usage or input error (with --apply: no winner to apply, or SKILL.md's description changed)"],
    [2, 'a failed gate'],
    [3, 'the original description has no verdict, or the session was interrupted'],
  ],
  examples: [
    [
      'Try up to 5 rewrites, leave SKILL.md alone:',
      'skilltrigger improve --skill skills/handoff --eval skills/handoff/evals.json',
    ],
    [
      "Later, put that session's winner into SKILL.md without measuring again:",
      'skilltrigger improve --apply results/2026-05-02-handoff-improve.json --skill skills/handoff',
    ],
  ],
} as const satisfies CommandHelp;
