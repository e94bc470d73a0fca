/**
 * The two author prompts — the eval-set draft (`init`) and the description rewrite (`improve`) —
 * and the readers of their answers. Pure. The prompts mark every part they carry with a tag so that
 * the simulated model can read them back (readDraftPrompt, readRewritePrompt): the format lives in
 * this one module.
 */

import { agentFacts, DEFAULT_AGENT } from '../agents/registry.js';
import { MAX_QUERY_BYTES } from '../inputs/eval-entry.js';

/** The Agent Skills spec's cap on a description (the same as DESCRIPTION_MAX_CHARS). */
export const DESCRIPTION_LIMIT = 1024;

/** A SKILL.md body longer than this is cut in a prompt: argv has a per-argument limit (128 KiB on Linux). */
export const BODY_LIMIT = 24_000;

/**
 * The longest prompt in UTF-8 bytes: `claude -p` takes it as one command-line argument, which has
 * the limit a query is held to (MAX_QUERY_BYTES); past it the spawn fails with E2BIG.
 */
export const PROMPT_MAX_BYTES = MAX_QUERY_BYTES;

/** What the draft prompt is built from. */
export interface DraftPromptInput {
  skillName: string;
  description: string;
  body: string;
  /** How many prompts to ask for in total. */
  count: number;
  /** The agent the skill is tested on, by its label (`Codex`); absent: Claude Code. */
  agentLabel?: string;
}

/**
 * How a prompt names the agent and who loads the skill: the default agent's label and loader name
 * (`Claude Code`, `Claude`) without one, another agent by its label both times.
 */
export function agentWords(agentLabel: string | undefined): { agent: string; loader: string } {
  const byDefault = agentFacts(DEFAULT_AGENT);
  return agentLabel === undefined
    ? { agent: byDefault.label, loader: byDefault.loaderName ?? byDefault.label }
    : { agent: agentLabel, loader: agentLabel };
}

/** One train query the incumbent fails, with its measured hits. */
export interface FailingQuery {
  query: string;
  shouldTrigger: boolean;
  hits: number;
  runs: number;
}

/** An earlier candidate of this improve session, with its train result. */
export interface PreviousAttempt {
  description: string;
  /** e.g. `rejected: no significant improvement on train (p = 0.31)`. */
  outcome: string;
  /** e.g. `positives 14/20, negatives 3/20`. */
  train: string;
}

export interface RewritePromptInput {
  skillName: string;
  body: string;
  current: string;
  /** Train queries only: the holdout is never shown to the rewriter. */
  failing: FailingQuery[];
  attempts: PreviousAttempt[];
  /** The agent the skill is measured on, by its label; absent: Claude Code. */
  agentLabel?: string;
}

export const DRAFT_OPEN = '<eval_set>';
export const DRAFT_CLOSE = '</eval_set>';
export const REWRITE_OPEN = '<new_description>';
export const REWRITE_CLOSE = '</new_description>';

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}\n[… cut at ${max} characters]`;
}

function tagged(tag: string, text: string): string {
  return `<${tag}>\n${text}\n</${tag}>`;
}

/** The draft prompt: about half should-trigger prompts and half near-misses, as a JSON array. */
export function draftPrompt(input: DraftPromptInput): string {
  const positives = Math.ceil(input.count / 2);
  const negatives = input.count - positives;
  const { agent, loader } = agentWords(input.agentLabel);
  return [
    `You are helping the author of a ${agent} skill test when ${loader} loads it. Draft a trigger eval set for the skill below.`,
    tagged('skill_name', input.skillName),
    tagged('skill_description', oneLine(input.description)),
    tagged('skill_body', cut(input.body.trim(), BODY_LIMIT)),
    tagged('count', String(input.count)),
    [
      `Write exactly ${input.count} prompts a user might type into ${agent}:`,
      `- ${positives} that SHOULD load this skill: in a user's own words, concrete, with file names and context, as people really ask; never name the skill.`,
      `- ${negatives} near-misses that should NOT load it: prompts that share words or topic with the skill but need something else.`,
      'Vary length and phrasing; do not repeat one template.',
      `Answer with only a JSON array between ${DRAFT_OPEN} and ${DRAFT_CLOSE}, each item {"query": "<the prompt>", "should_trigger": true or false}.`,
    ].join('\n'),
  ].join('\n\n');
}

function failingLine(q: FailingQuery): string {
  return `- ${q.shouldTrigger ? 'should trigger' : 'should not trigger'} · loaded ${q.hits}/${q.runs} · ${oneLine(q.query)}`;
}

function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/** The longest head of `text` that takes at most `maxBytes` in UTF-8, cut between code points. */
function headWithin(text: string, maxBytes: number): string {
  let bytes = 0;
  let end = 0;
  for (const char of text) {
    bytes += utf8Bytes(char);
    if (bytes > maxBytes) break;
    end += char.length;
  }
  return text.slice(0, end);
}

const BODY_SQUEEZED = '\n[… cut to fit the prompt in one command-line argument]';

/**
 * The rewrite prompt: the body, the current text, the train failures, the earlier attempts, the
 * rules. At most PROMPT_MAX_BYTES: when the whole does not fit, the failing queries get the room
 * the other parts leave, in order, each whole or left out, and the prompt says how many were left
 * out; when even the other parts do not fit, the body is cut further.
 */
export function rewritePrompt(input: RewritePromptInput): string {
  const lines = input.failing.map(failingLine);
  let body = cut(input.body.trim(), BODY_LIMIT);
  const whole = rewriteParts(input, body, lines.length === 0 ? 'none' : lines.join('\n'));
  if (utf8Bytes(whole) <= PROMPT_MAX_BYTES) return whole;
  const leftOut = (n: number) =>
    `[${n} of ${lines.length} failing queries left out: the prompt must fit in one command-line argument]`;
  // The note with every query left out is the longest it can be: room is counted against it.
  const over = utf8Bytes(rewriteParts(input, body, leftOut(lines.length))) - PROMPT_MAX_BYTES;
  if (over > 0) body = headWithin(body, utf8Bytes(body) - over - utf8Bytes(BODY_SQUEEZED)) + BODY_SQUEEZED;
  let room = PROMPT_MAX_BYTES - utf8Bytes(rewriteParts(input, body, leftOut(lines.length)));
  const sent: string[] = [];
  for (const line of lines) {
    const need = utf8Bytes(line) + 1; // and the line break before the note
    if (need > room) continue;
    sent.push(line);
    room -= need;
  }
  return rewriteParts(input, body, [...sent, leftOut(lines.length - sent.length)].join('\n'));
}

function rewriteParts(input: RewritePromptInput, body: string, failing: string): string {
  const attempts =
    input.attempts.length === 0
      ? 'none yet'
      : input.attempts
          .map(
            (a, i) =>
              `<attempt n="${i + 1}">\n${oneLine(a.description)}\ntrain: ${a.train}; ${a.outcome}\n</attempt>`,
          )
          .join('\n');
  const { agent, loader } = agentWords(input.agentLabel);
  return [
    `You are improving the description of a ${agent} skill: the text ${loader} reads to decide whether to load the skill. Rewrite it so that it loads for the requests it is meant for and stays quiet on the others.`,
    tagged('skill_name', input.skillName),
    tagged('skill_body', body),
    tagged('current_description', oneLine(input.current)),
    tagged('failing_queries', failing),
    tagged('previous_attempts', attempts),
    [
      'Rules:',
      `- At most ${DESCRIPTION_LIMIT} characters (the Agent Skills spec's limit).`,
      '- Keep the author’s intent: what the skill does and when to use it, third person.',
      '- Use distinctive wording for the task; say what it is not for when near-misses fire.',
      '- Do not list the test prompts or paraphrase them one by one: they are a sample of what users ask.',
      `Answer with only the new description between ${REWRITE_OPEN} and ${REWRITE_CLOSE}.`,
    ].join('\n'),
  ].join('\n\n');
}

/** The text between the first `open` and the next `close`, or undefined when either tag is missing. */
export function between(text: string, open: string, close: string): string | undefined {
  const start = text.indexOf(open);
  if (start < 0) return undefined;
  const end = text.indexOf(close, start + open.length);
  if (end < 0) return undefined;
  return text.slice(start + open.length, end);
}

function tagText(text: string, tag: string): string | undefined {
  const inner = between(text, `<${tag}>\n`, `\n</${tag}>`);
  return inner;
}

/** What the simulated model reads back from a draft prompt; undefined for any other text. */
export function readDraftPrompt(text: string): DraftPromptInput | undefined {
  if (!text.includes(DRAFT_OPEN) || !text.includes(DRAFT_CLOSE)) return undefined;
  const skillName = tagText(text, 'skill_name');
  const description = tagText(text, 'skill_description');
  const count = Number(tagText(text, 'count'));
  if (skillName === undefined || description === undefined || !Number.isInteger(count)) return undefined;
  return { skillName, description, body: tagText(text, 'skill_body') ?? '', count };
}

/** What the simulated model reads back from a rewrite prompt; undefined for any other text. */
export function readRewritePrompt(text: string): RewritePromptInput | undefined {
  if (!text.includes(REWRITE_OPEN) || !text.includes(REWRITE_CLOSE)) return undefined;
  const skillName = tagText(text, 'skill_name');
  const current = tagText(text, 'current_description');
  const failingText = tagText(text, 'failing_queries');
  if (skillName === undefined || current === undefined || failingText === undefined) return undefined;
  const failing: FailingQuery[] = [];
  for (const line of failingText.split('\n')) {
    const m = /^- (should trigger|should not trigger) · loaded (\d+)\/(\d+) · (.*)$/.exec(line);
    if (m?.[4] === undefined) continue;
    failing.push({
      shouldTrigger: m[1] === 'should trigger',
      hits: Number(m[2]),
      runs: Number(m[3]),
      query: m[4],
    });
  }
  const attempts: PreviousAttempt[] = [];
  for (const m of (tagText(text, 'previous_attempts') ?? '').matchAll(
    /<attempt n="\d+">\n(.*)\ntrain: (.*?); (.*)\n<\/attempt>/g,
  )) {
    attempts.push({ description: m[1] ?? '', train: m[2] ?? '', outcome: m[3] ?? '' });
  }
  return { skillName, body: tagText(text, 'skill_body') ?? '', current, failing, attempts };
}
