import { isRecord } from '../guards.js';
import { type ListingEntry, type RequestView, requestView, type StubRules } from './request.js';

/**
 * Reading a Responses API request (`POST /v1/responses`) as Codex sends it, into the same view the
 * Messages side builds: the user's query, the skill listing of the `<skills_instructions>`
 * developer message, the working directory of `<environment_context>`, and whether this is a later
 * request of the same run (tool outputs after the last user message). docs/codex.md shows the shapes.
 */

/** The Messages view, plus where each listed skill's SKILL.md is (its alias expanded). */
export interface ResponsesView extends RequestView {
  /** Listed name → absolute SKILL.md path, from `(file: r1/<dir>/SKILL.md)` and the roots table. */
  skillFiles: Map<string, string>;
  /** Codex's session id (`prompt_cache_key`), the same on every request of one run. */
  session?: string;
  /**
   * How the request lets the model run a command: the `exec` custom tool of the `additional_tools`
   * item (JavaScript calling `tools.exec_command`), offered for models Codex knows, or an
   * `exec_command` function in `tools[]`, offered for a model with fallback metadata.
   */
  commandTool: 'exec' | 'exec_command';
}

/** Which command tool a Responses request offers (see `ResponsesView.commandTool`). */
export function commandToolOf(tools: unknown): 'exec' | 'exec_command' {
  const direct = Array.isArray(tools) && tools.some((t) => isRecord(t) && t.name === 'exec_command');
  return direct ? 'exec_command' : 'exec';
}

/** One `- name: description (file: alias/dir/SKILL.md)` line of the listing. */
// A description the budget removed leaves `- name: (file: …)` (docs/listing-budget.md).
const ENTRY = /^- (.+?): (?:(.*) )?\(file: ([^)]*)\)$/;
const ROOT = /^- `([^`]+)` = `([^`]+)`$/;

function texts(item: Record<string, unknown>): string[] {
  const { content } = item;
  if (typeof content === 'string') return [content];
  if (!Array.isArray(content)) return [];
  return content
    .filter(isRecord)
    .map((part) => part.text)
    .filter((t): t is string => typeof t === 'string');
}

/** The listing inside `<skills_instructions>`: entries in order, and each one's file path. */
export function parseSkillsInstructions(text: string): {
  listing: ListingEntry[];
  files: Map<string, string>;
} {
  const open = text.indexOf('<skills_instructions>');
  const close = text.indexOf('</skills_instructions>');
  const listing: ListingEntry[] = [];
  const files = new Map<string, string>();
  if (open < 0) return { listing, files };
  const body = text.slice(open, close < 0 ? undefined : close);
  const roots = new Map<string, string>();
  for (const line of body.split('\n')) {
    const root = ROOT.exec(line);
    if (root?.[1] !== undefined && root[2] !== undefined) {
      roots.set(root[1], root[2]);
      continue;
    }
    const entry = ENTRY.exec(line);
    if (entry?.[1] === undefined || entry[3] === undefined) continue;
    listing.push({ name: entry[1], description: entry[2] ?? '' });
    const [alias, ...rest] = entry[3].split('/');
    const base = alias === undefined ? undefined : roots.get(alias);
    files.set(entry[1], base === undefined ? entry[3] : [base, ...rest].join('/'));
  }
  return { listing, files };
}

function outputText(output: unknown): string {
  if (typeof output === 'string') return output;
  if (!Array.isArray(output)) return '';
  return output
    .filter(isRecord)
    .map((part) => (typeof part.text === 'string' ? part.text : ''))
    .join('\n');
}

/** Codex's own context messages, which are not the user's prompt. */
function isContext(text: string): boolean {
  return /^\s*(<environment_context>|<user_instructions>|# AGENTS\.md instructions)/.test(text);
}

/** The text of the developer message that holds `<skills_instructions>`, exactly as sent; undefined without one. */
export function skillsInstructionsOf(body: unknown): string | undefined {
  if (!isRecord(body) || !Array.isArray(body.input)) return undefined;
  for (const item of body.input.filter(isRecord)) {
    if (item.type !== 'message' || item.role !== 'developer') continue;
    const text = texts(item).find((t) => t.includes('<skills_instructions>'));
    if (text !== undefined) return text;
  }
  return undefined;
}

/**
 * Reads a Responses request body. Returns a reason string when it is not one, so the fake can
 * answer 400 as the API would.
 */
export function parseResponsesView(body: unknown, rules: StubRules = {}): ResponsesView | string {
  if (!isRecord(body)) return 'body: expected an object';
  if (typeof body.model !== 'string') return "Missing required parameter: 'model'.";
  if (!Array.isArray(body.input)) return "Missing required parameter: 'input'.";
  const items = body.input.filter(isRecord);

  let listing: ListingEntry[] = [];
  let skillFiles = new Map<string, string>();
  let cwd: string | undefined;
  let query = '';
  let lastUser = -1;
  for (const [index, item] of items.entries()) {
    if (item.type !== 'message') continue;
    for (const text of texts(item)) {
      if (item.role === 'developer' && text.includes('<skills_instructions>')) {
        const parsed = parseSkillsInstructions(text);
        listing = parsed.listing;
        skillFiles = parsed.files;
      }
      const at = /<cwd>([^<]*)<\/cwd>/.exec(text);
      if (at?.[1] !== undefined) cwd = at[1];
      if (item.role === 'user' && !isContext(text)) {
        query = text.trim();
        lastUser = index;
      }
    }
  }
  // The user and assistant messages before the query: the turns of a context (docs/context.md).
  let priorTurns = 0;
  for (const item of items.slice(0, Math.max(lastUser, 0))) {
    if (item.type !== 'message' || (item.role !== 'user' && item.role !== 'assistant')) continue;
    if (texts(item).some((text) => !(item.role === 'user' && isContext(text)))) priorTurns++;
  }

  const toolResultIds: string[] = [];
  const toolResultTexts: string[] = [];
  for (const item of items.slice(lastUser + 1)) {
    if (item.type !== 'function_call_output' && item.type !== 'custom_tool_call_output') continue;
    if (typeof item.call_id === 'string') toolResultIds.push(item.call_id);
    toolResultTexts.push(outputText(item.output));
  }

  const session = typeof body.prompt_cache_key === 'string' ? body.prompt_cache_key : undefined;
  const findings = {
    query,
    listing,
    cwd,
    followUp: toolResultIds.length > 0,
    toolResultIds,
    toolResultTexts,
    priorTurns,
  };
  return {
    ...requestView(body.model, body.stream, findings, rules),
    skillFiles,
    ...(session === undefined ? {} : { session }),
    commandTool: commandToolOf(body.tools),
  };
}
