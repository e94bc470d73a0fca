/** The help entries of the measuring commands: run, preflight and matrix (help.ts renders them). */

import { DEFAULT_AGENT } from '../../agents/registry.js';
import { MATRIX_AGENTS } from '../../schemas/matrix.js';
import {
  agentBinOptions,
  agentBinUsage,
  agentChoices,
  agentValues,
  type CommandHelp,
  SHARED_OPTIONS as SHARED,
} from './options.js';

export const RUN_HELP = {
  summary: 'measure how often a description makes a coding agent load the skill',
  usage: [
    'run --skill <dir> [--eval <file>] [--runs 2|auto[:max]] [--model M] [--timeout 30]',
    '    [--description "<text>"] [--baseline-description <text|file>]',
    '    [--baseline-description-file <file>]',
    '    [--stub command|skill] [--out <dir>] [--junit <file>] [--allow-conflict]',
    '    [--max-retries 2] [--threshold 0.5] [--claude <path>] [--debug]',
    '    [--siblings <dir>]... [--cross-negatives]',
    '    [--late N] [--prices <file>] [--max-cost-usd X] [--dry-run] [--standby N]',
    `    [--agent ${agentValues()}[,…]] ${agentBinUsage()}`,
    '    [--context <file>] [--context-fill N] [--versus-fresh] [--allow-bare]',
    '    [--roster <file|dir> [--versus-clean]] [--memory <file>]...',
  ],
  options: [
    SHARED.skill,
    {
      name: 'eval',
      value: '<file>',
      text: "the eval set: skill-creator JSON, AgentV EVAL.yaml or CSV (default: the skill's own, the first of evals/evals.json, evals.json, evals/EVAL.yaml, EVAL.yaml, evals/evals.csv, evals.csv in its folder, named on stderr); checked like `skilltrigger check` before anything runs, and its weak-set warnings shown",
    },
    {
      name: 'runs',
      value: 'N|auto[:max]',
      text: 'runs per query, 1 to 100 (default 2). auto: each query stops once the chance that its remaining runs up to max would change its pass/fail is under 5%; max defaults to 6 (auto:10 allows 10)',
    },
    {
      name: 'model',
      value: '<M[,M2…]>',
      text: "the model claude runs (default: claude's own default). Several, comma-separated (ids or aliases, each once): every query is measured on each, interleaved, in one report with a column per model",
    },
    {
      name: 'timeout',
      value: '<seconds>',
      text: 'wall-clock limit of one run in seconds, 5 to 3600 (default 30; a run needs a few seconds even when the model answers at once); a timed-out run is counted apart, never as a miss',
    },
    {
      name: 'context',
      value: '<file>',
      text: 'start every run with these earlier turns in its history, the query being the next user message: a JSON array of {"role", "content"} turns, or a Claude Code session or Codex rollout (.jsonl) read as its messages (docs/context.md). The report holds its hash, turn count and size, never its text',
    },
    {
      name: 'context-fill',
      value: '<N>',
      text: 'start every run with N characters (500 to 1000000) of a coding conversation that ships with skilltrigger, the same on every run, instead of your own --context file (docs/context.md, "Filling context"); the report says the fill',
    },
    {
      name: 'versus-fresh',
      text: "measure each query that carries a context (--context, or its entry's own) both fresh and with its context, interleaved, in one report that judges each arm apart and says how many points the session costs (docs/context.md)",
    },
    {
      name: 'late',
      value: '<N>',
      text: 'keep a run that did not trigger going for up to N more turns, 0 to 10 (default 0: off), and count apart the misses that loaded the skill later; a late load is never a hit and never changes pass/fail',
    },
    {
      name: 'prices',
      value: '<file>',
      text: 'price the tokens with this JSON price table instead of the built-in one (docs/cost.md)',
    },
    {
      name: 'max-cost-usd',
      value: '<X>',
      text: 'refuse (exit 1) when the estimate from the round trip passes X US dollars, saying how many runs X buys; stop before a run that could pass X (no verdict, reason budget, exit 3)',
    },
    {
      name: 'roster',
      value: '<file|dir>',
      text: "measure among this crowd (a roster file, or a folder of skill folders): each run lists it around the stub in a HOME of its own, the stub where the skill's folder would stand, so the budget makes the same entries whole, cut and name-only as where the roster came from (Claude Code needs ANTHROPIC_API_KEY in the environment; claude and codex only; docs/roster.md)",
    },
    {
      name: 'versus-clean',
      text: 'with --roster: measure the same description among the crowd and in the clean room (no crowd, the stub alone in a HOME of its own), interleaved, in one paired report whose comparison is what the crowd costs, in points (docs/roster.md); not with --baseline-description or --versus-fresh',
    },
    {
      name: 'memory',
      value: '<file>',
      repeatable: true,
      text: 'install this file of project instructions in every run\'s temp project, as each agent reads it: CLAUDE.md for Claude Code, AGENTS.md for Codex, GEMINI.md for Gemini CLI; several are joined in order into that one file (at most 32 KiB together); the report records each by its hash and size (docs/cli.md, "Memory files")',
    },
    {
      name: 'allow-bare',
      text: "measure even when the agent lists the stub name-only or cut where the skill itself, in the user's skills folder, would be listed better (refused by default, exit 2: the runs would measure a shorter text than a session sees; docs/listing-budget.md)",
    },
    {
      name: 'dry-run',
      text: 'run the gates, print the plan (queries × runs × models × sides = runs) and its cost estimate; measure nothing (exit 0)',
    },
    {
      name: 'description',
      value: '"<text>"',
      text: "measure this text instead of SKILL.md's description (the candidate side)",
    },
    {
      name: 'baseline-description',
      value: '<text|file>',
      text: 'also measure this text as the baseline, the "before" side (a file holding it, or the text), interleaved with the candidate (your SKILL.md or --description) in one paired report. A value that looks like a file name (one word with a /, or ending in .md or .txt) but names no file is refused',
    },
    {
      name: 'baseline-description-file',
      value: '<file>',
      text: 'as --baseline-description, the text read from this file (which must exist); the terminal and the report say which form the baseline came from',
    },
    {
      name: 'stub',
      value: 'command|skill',
      text: 'what stands in for the skill in the temp project. command (default): a slash command .claude/commands/<name>-stub-<8 hex>.md, a name nothing installed can collide with. skill: .claude/skills/<name>/SKILL.md under the real name, as Claude Code loads a skill',
    },
    SHARED.out,
    {
      name: 'junit',
      value: '<file>',
      text: 'also write JUnit XML there: one testcase per query (per side in a paired report)',
    },
    SHARED.allowConflict,
    SHARED.maxRetries,
    SHARED.standby,
    {
      name: 'threshold',
      value: '<rate>',
      text: 'a positive passes above this trigger rate, a negative below it (default 0.5)',
    },
    {
      name: 'agent',
      value: `${agentValues()}[,…]`,
      text: `the agent CLI that runs the queries: ${agentChoices()}. Several, comma-separated: every query is measured on each, interleaved, in one report judged agent by agent; then --model names each agent's model (claude:<M>,codex:<M>)`,
    },
    ...agentBinOptions(true),
    SHARED.defaultBin,
    SHARED.debug,
    {
      name: 'siblings',
      value: '<dir>',
      repeatable: true,
      text: 'install every other SKILL.md under this folder (recursively) beside the stub, each as a stub of its own, so the skill competes with its siblings; the report says which sibling took each run (docs/cli.md, "Competition")',
    },
    {
      name: 'cross-negatives',
      text: "with --siblings: also measure each sibling's positives (from its eval set beside its SKILL.md) as extra negatives of this skill, labelled from: <sibling>; the extra runs are printed before they are spent",
    },
  ],
  exitCodes: [
    [0, 'a verdict: the runs were measured (read the numbers for how the skill did)'],
    [1, 'a usage or input error; nothing ran'],
    [2, 'a gate failed; nothing was measured'],
    [3, 'no verdict: too many runs lost, or --max-cost-usd reached; the report is still written'],
  ],
  examples: [
    [
      'Measure a skill, spending runs where they matter:',
      'skilltrigger run --skill skills/handoff --eval skills/handoff/evals.json --runs auto',
    ],
    [
      'Judge the SKILL.md rewrite (candidate) against the old text in old.txt (baseline), interleaved:',
      'skilltrigger run --skill skills/handoff --eval evals.json --baseline-description old.txt',
    ],
  ],
} as const satisfies CommandHelp;

export const PREFLIGHT_HELP = {
  summary: 'run the gates alone (cli, auth, round-trip, conflict, sleep, roster)',
  usage: [
    'preflight [--model M] [--skill <dir>] [--out <dir>] [--allow-conflict]',
    `    [--agent ${agentValues()}[,…]] [--claude <path>]`,
    `    ${agentBinUsage()}`,
  ],
  options: [
    { name: 'model', value: '<M>', text: 'the model the round-trip asks (the one you will measure with)' },
    {
      name: 'skill',
      value: '<dir>',
      text: 'the skill to look for in enabled plugins (the conflict gate)',
    },
    SHARED.out,
    SHARED.allowConflict,
    {
      name: 'agent',
      value: '<agents>',
      text: `whose gates to run: ${agentChoices()}; several, comma-separated (each agent's doc, "Gates")`,
    },
    SHARED.defaultBin,
    ...agentBinOptions(false),
  ],
  exitCodes: [
    [0, 'every gate passed (warnings allowed)'],
    [1, 'a usage or input error'],
    [2, 'a gate failed: a run would measure nothing'],
  ],
  examples: [
    ['Check the machine before a long run:', 'skilltrigger preflight --model sonnet'],
    ['Also look for a plugin that shadows this skill:', 'skilltrigger preflight --skill skills/handoff'],
  ],
} as const satisfies CommandHelp;

/** The agents but the default a matrix runs on, whose executable options its help names. */
const MATRIX_OTHER_AGENTS = MATRIX_AGENTS.filter((id) => id !== DEFAULT_AGENT);

export const MATRIX_HELP = {
  summary: 'measure the skills under a folder together: which skill each query loads',
  usage: [
    'matrix --skills <dir> [--runs 2] [--model M] [--timeout 30] [--stub command|skill]',
    '    [--out <dir>] [--shard i/n] [--json] [--allow-conflict] [--max-retries 2]',
    '    [--claude <path>] [--debug] [--standby N] [--context <file>] [--context-fill N]',
    `    [--agent ${agentValues(MATRIX_AGENTS)}] ${agentBinUsage(MATRIX_OTHER_AGENTS)}`,
    '    or: --merge <leg.json> <leg.json>... [--out <dir>] [--json]',
  ],
  options: [
    {
      name: 'skills',
      value: '<dir>',
      text: 'the folder whose SKILL.md files (found recursively) are measured together: each is installed in every run; a skill with an eval set (evals/evals.json, evals.json, evals/EVAL.yaml, EVAL.yaml, evals/evals.csv or evals.csv in its folder) owns its queries, one without is listed "no eval set" and competes only',
    },
    { name: 'runs', value: '<N>', text: 'runs per query, 1 to 100 (default 2)' },
    { name: 'model', value: '<M>', text: "the model the agent runs (default: the agent's own default)" },
    {
      name: 'agent',
      value: agentValues(MATRIX_AGENTS),
      text: `the agent CLI that runs every query: ${agentChoices(MATRIX_AGENTS)}. One agent per matrix: measure another in a call of its own`,
    },
    ...agentBinOptions(false, MATRIX_OTHER_AGENTS),
    {
      name: 'context',
      value: '<file>',
      text: 'start every run of a query without a context of its own (an eval set entry\'s "context") with these earlier turns, as for run (docs/context.md); refused on an agent that takes no context',
    },
    {
      name: 'context-fill',
      value: '<N>',
      text: 'the same with N characters (500 to 1000000) of the coding conversation that ships with skilltrigger, as for run',
    },
    {
      name: 'timeout',
      value: '<seconds>',
      text: 'wall-clock limit of one run in seconds, 5 to 3600 (default 30); a timed-out run is counted apart',
    },
    {
      name: 'stub',
      value: 'command|skill',
      text: 'how each skill is installed in the temp project, as for run (default command)',
    },
    SHARED.out,
    {
      name: 'shard',
      value: 'i/n',
      text: 'measure leg i of n: every n-th query, starting at the i-th (every skill still installed); merge the legs with --merge',
    },
    {
      name: 'merge',
      value: '<leg.json>',
      text: 'combine the legs of a sharded matrix into one (the files may follow --merge or repeat it); refuses legs with different skills, descriptions, settings or CLI versions. Runs nothing',
      repeatable: true,
    },
    { name: 'json', text: 'print the matrix report as JSON on stdout (the files are written too)' },
    SHARED.allowConflict,
    SHARED.maxRetries,
    SHARED.standby,
    SHARED.defaultBin,
    SHARED.debug,
  ],
  exitCodes: [
    [0, 'a verdict: every planned run was measured, or few enough were lost'],
    [1, 'a usage or input error (a SKILL.md or eval set that does not parse, legs that differ)'],
    [2, 'a gate failed; nothing was measured'],
    [3, 'no verdict: too many runs were lost; the report is still written'],
  ],
  examples: [
    ['Which of the skills in skills/ takes which prompts:', 'skilltrigger matrix --skills skills --runs 2'],
    [
      'Leg 1 of 2 in one CI job (2/2 in another), then the legs merged into one matrix:',
      'skilltrigger matrix --skills skills --shard 1/2',
    ],
  ],
} as const satisfies CommandHelp;
