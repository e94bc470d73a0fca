import { isRecord } from '../guards.js';
/**
 * Reading a Messages API request the way the simulated model needs it: the user's query, the skill
 * listing the CLI put in front of the model, the working directory, and whether this is a later turn.
 * Request bodies are parsed from `unknown`; nothing here trusts the CLI's JSON shape.
 */

/** One `- name: description` line of the skill listing. */
export interface ListingEntry {
  name: string;
  description: string;
}

/** What the simulated model understood of one `POST /v1/messages` request. */
export interface RequestView {
  /** The user's prompt text, without the CLI's `<system-reminder>` blocks. */
  query: string;
  /** The skill listing, in the CLI's order; an entry the listing budget cut to `- name` has description ''. */
  listing: ListingEntry[];
  /** The listing entry the scenario treats as the stub under test. */
  stub?: ListingEntry;
  /**
   * Every listed stub, tested and siblings, in listing order: the entries named
   * `<skill>-stub-<8 hex>`, plus those the scenario names (`isStub`, `isCompetitor`: the skill
   * layout's real names). Optional so hand-built views in tests need not list it.
   */
  stubs?: ListingEntry[];
  /** The project working directory, from the environment section (`Primary working directory: …`). */
  cwd?: string;
  /** `model` of the request body. */
  model: string;
  /** `stream` of the request body; the CLI falls back to `false` after a cut stream. */
  stream: boolean;
  /** True when the last user message carries a tool_result: a later turn of the same run. */
  followUp: boolean;
  /** The tool_use ids answered by the last user message (empty on a first turn). */
  toolResultIds: string[];
  /**
   * The text of the tool results in the last user message, in order (empty on a first turn): what
   * the CLI sends the model back after running its tools, e.g. a Bash command's output. Optional so
   * hand-built views in tests need not list it.
   */
  toolResultTexts?: string[];
  /**
   * How many user and assistant messages came before the query: the turns of a context the run
   * started with (0 for a fresh run). Optional so hand-built views in tests need not list it.
   */
  priorTurns?: number;
}

/**
 * How Claude Code's resume prompt begins, the user message it sends after a stream cut mid-answer
 * (docs/claude-cli.md §6): a request to go on, never the query.
 */
const CUT_RESUME_PROMPT = 'Your response above was cut off mid-stream.';

/** The exact query of the project's round-trip gate. */
export const GATE_QUERY = 'Reply with exactly: pong';

/** The line that opens the skill listing, in both listing formats (docs/claude-cli.md §2). */
export const LISTING_HEADER = 'The following skills are available for use with the Skill tool:';

const DEFAULT_STUB_NAME = /-stub-[0-9a-f]{8}$/;

/** The default stub rule: the name skilltrigger gives a command stub, `<skill>-stub-<8 hex>`. */
export function isDefaultStub(entry: ListingEntry): boolean {
  return DEFAULT_STUB_NAME.test(entry.name);
}

/**
 * Which listed entries a view calls stubs: `isStub` picks the one under test (default: a name ending
 * in `-stub-<8 hex>`), `isCompetitor` the other listed entries that are stubs too (siblings of the
 * skill layout, listed by their real names; default none). `-stub-<8 hex>` names always are.
 */
export interface StubRules {
  isStub?: (entry: ListingEntry) => boolean;
  isCompetitor?: ((entry: ListingEntry) => boolean) | undefined;
}

/** What either API's reader finds in a request body, besides its `model` and `stream` fields. */
export interface RequestFindings {
  query: string;
  listing: ListingEntry[];
  cwd: string | undefined;
  followUp: boolean;
  toolResultIds: string[];
  toolResultTexts: string[];
  /** See `RequestView.priorTurns`. */
  priorTurns?: number;
}

/**
 * The view of a request: what its reader found, the body's `model` and `stream` (only `true`
 * streams), and the stub under test and every listed stub (`RequestView.stubs`) as `rules` pick them.
 */
export function requestView(
  model: string,
  stream: unknown,
  { query, listing, cwd, ...results }: RequestFindings,
  { isStub = isDefaultStub, isCompetitor = () => false }: StubRules,
): RequestView & { stubs: ListingEntry[] } {
  const stub = listing.find(isStub);
  const stubs = listing.filter((e) => e === stub || isDefaultStub(e) || isCompetitor(e));
  return {
    query,
    listing,
    ...(stub === undefined ? {} : { stub }),
    stubs,
    ...(cwd === undefined ? {} : { cwd }),
    model,
    stream: stream === true,
    ...results,
  };
}

/** The skill a listed stub stands for: `xlsx-stub-1a2b3c4d` → `xlsx`; a real (skill-layout) name as it is. */
export function stubSkillName(name: string): string {
  return name.replace(DEFAULT_STUB_NAME, '');
}

interface Message {
  role: string;
  blocks: Record<string, unknown>[];
}

/** A message's content is either a string or an array of blocks; a string becomes one text block. */
function readMessage(value: unknown): Message | undefined {
  if (!isRecord(value) || typeof value.role !== 'string') return undefined;
  const { content } = value;
  if (typeof content === 'string') return { role: value.role, blocks: [{ type: 'text', text: content }] };
  if (!Array.isArray(content)) return undefined;
  return { role: value.role, blocks: content.filter(isRecord) };
}

function textsOf(blocks: Record<string, unknown>[]): string[] {
  const texts: string[] = [];
  for (const block of blocks) {
    if (block.type === 'text' && typeof block.text === 'string') texts.push(block.text);
  }
  return texts;
}

function systemTexts(system: unknown): string[] {
  if (typeof system === 'string') return [system];
  if (!Array.isArray(system)) return [];
  return textsOf(system.filter(isRecord));
}

/** The prompt as the user typed it: the CLI wraps everything it adds in `<system-reminder>` tags. */
export function stripReminders(text: string): string {
  return text.replace(/<system-reminder>[\s\S]*?<\/system-reminder>/g, '').trim();
}

/**
 * Parses the listing that follows {@link LISTING_HEADER} up to the first blank line (format A: the
 * date line follows) or the closing `</system-reminder>` (format B). Some built-in descriptions span
 * several lines; a line that does not open an entry continues the previous description.
 */
export function parseListing(text: string): ListingEntry[] | undefined {
  const at = text.indexOf(LISTING_HEADER);
  if (at < 0) return undefined;
  const rest = text.slice(at + LISTING_HEADER.length).replace(/^\n+/, '');
  const end = rest.search(/\n\n|\n?<\/system-reminder>/);
  const body = end < 0 ? rest : rest.slice(0, end);
  const entries: ListingEntry[] = [];
  for (const line of body.split('\n')) {
    // Names may hold `:` (plugin `plug:skill`, nested `sub:cmd`), so the name ends at the first `: `.
    // A skill whose name differs from its folder is listed as `- folder (name): …` (folder first, observed in 2.1.328).
    const match = /^- (\S+?)(?: \([^)]*\))?(?:: (.*))?$/.exec(line);
    const last = entries[entries.length - 1];
    if (match?.[1] !== undefined) entries.push({ name: match[1], description: match[2] ?? '' });
    else if (last !== undefined && line !== '') last.description += `\n${line}`;
  }
  return entries;
}

/** One entry of the listing, read exactly: its name and the text after `- folder: ` (or `- folder (name): `). */
export interface ListingLine {
  name: string;
  /** The listed text exactly, continuation lines included ('' when listed as just `- name`). */
  description: string;
}

/**
 * The exact listing line of the entry whose folder (skill) or file stem (command) is `folder`, in a
 * request body: `- folder: …`, `- folder (name): …` when the frontmatter names it otherwise, or
 * just `- folder`. The text runs to the end of its line, plus any following lines that open no new
 * entry (a description Claude Code lists with a line break). Undefined when the entry is not listed.
 */
export function findListingLine(body: unknown, folder: string): ListingLine | undefined {
  const lines = listingBlockOf(body);
  if (lines === undefined) return undefined;
  const escaped = folder.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // `- folder (name): …` when the frontmatter's name differs from the folder (observed, 2.1.328).
  const opening = new RegExp(`^- ${escaped}(?: \\((.*?)\\))?(?:: ([\\s\\S]*))?$`);
  for (const [i, line] of lines.entries()) {
    const match = opening.exec(line);
    if (match === null) continue;
    const parts = [match[2] ?? ''];
    for (const next of lines.slice(i + 1)) {
      if (/^- \S/.test(next)) break;
      parts.push(next);
    }
    return { name: match[1] ?? folder, description: parts.join('\n') };
  }
  return undefined;
}

/** The lines of the skill listing in a request body, from after its header to its end. */
function listingBlockOf(body: unknown): string[] | undefined {
  if (!isRecord(body) || !Array.isArray(body.messages)) return undefined;
  const messages = body.messages.map(readMessage).filter((m): m is Message => m !== undefined);
  const texts = [...messages.flatMap((m) => textsOf(m.blocks)), ...systemTexts(body.system)];
  const text = texts.find((t) => t.includes(LISTING_HEADER));
  if (text === undefined) return undefined;
  const rest = text.slice(text.indexOf(LISTING_HEADER) + LISTING_HEADER.length).replace(/^\n+/, '');
  const end = rest.search(/\n\n|\n?<\/system-reminder>/);
  return (end < 0 ? rest : rest.slice(0, end)).split('\n');
}

/**
 * Every entry of the skill listing in a request body, in order: its whole line (continuation lines
 * joined with `\n`), its listed name (`folder` or `folder (name)`), and its text after `: `, or
 * undefined for an entry listed bare as `- name`. Undefined when the body holds no listing.
 */
export function listingLinesOf(
  body: unknown,
): Array<{ line: string; name: string; text: string | undefined }> | undefined {
  const lines = listingBlockOf(body);
  if (lines === undefined) return undefined;
  const entries: Array<{ line: string; name: string; text: string | undefined }> = [];
  for (const line of lines) {
    const last = entries[entries.length - 1];
    if (!/^- \S/.test(line) && last !== undefined) {
      last.line += `\n${line}`;
      last.text = `${last.text ?? ''}\n${line}`;
      continue;
    }
    // The name ends at the first `: ` (a plugin's `plug:skill` holds a bare `:`).
    const at = line.indexOf(': ');
    entries.push(
      at < 0
        ? { line, name: line.slice(2), text: undefined }
        : { line, name: line.slice(2, at), text: line.slice(at + 2) },
    );
  }
  return entries;
}

export function parseCwd(text: string): string | undefined {
  const match = /Primary working directory: (.+)/.exec(text);
  return match?.[1]?.trim();
}

/**
 * Reads a request body. Returns a reason string when the body is not a Messages request, so the
 * fake can answer 400 the way the API would.
 */
export function parseRequestView(body: unknown, rules: StubRules = {}): RequestView | string {
  if (!isRecord(body)) return 'body: expected an object';
  if (typeof body.model !== 'string') return 'model: Field required';
  if (!Array.isArray(body.messages)) return 'messages: Field required';
  const messages: Message[] = [];
  for (const raw of body.messages) {
    const message = readMessage(raw);
    if (message === undefined) return 'messages: each message needs a role and content';
    messages.push(message);
  }
  // Format A puts the listing and environment in a role:"system" message, format B in
  // <system-reminder> blocks of the first user message; scanning every text covers both.
  const texts = [...messages.flatMap((m) => textsOf(m.blocks)), ...systemTexts(body.system)];
  const { query, priorTurns } = queryOf(messages);
  const { followUp, toolResultIds, toolResultTexts } = toolResultsOf(messages);
  const listing = firstFound(texts, parseListing) ?? [];
  const cwd = firstFound(texts, parseCwd);
  const findings = { query, listing, cwd, followUp, toolResultIds, toolResultTexts, priorTurns };
  return requestView(body.model, body.stream, findings, rules);
}

/**
 * The query is the last user message with words of its own that answers no tool call and is not
 * the CLI's own request to resume a cut answer: a follow-up's user messages carry tool results
 * (and the text a tool added beside them), a resumed answer ends with the CLI's resume prompt,
 * and a run with a context has the earlier turns before it.
 */
function queryOf(messages: readonly Message[]): { query: string; priorTurns: number } {
  const typed = (m: Message) => textsOf(m.blocks).map(stripReminders).filter(Boolean).join('\n');
  const resumesCut = (m: Message) => typed(m).startsWith(CUT_RESUME_PROMPT);
  const answersTool = (m: Message | undefined) =>
    m?.role === 'user' && m.blocks.some((b) => b.type === 'tool_result');
  const spoken = messages.filter((m) => m.role !== 'system');
  const queryMessage = spoken.findLast(
    (m, i) =>
      m.role === 'user' &&
      typed(m) !== '' &&
      !answersTool(m) &&
      !answersTool(spoken[i - 1]) &&
      !resumesCut(m),
  );
  const queryAt = queryMessage === undefined ? -1 : messages.indexOf(queryMessage);
  const query = queryAt < 0 ? '' : typed(messages[queryAt] as Message);
  const priorTurns = messages
    .slice(0, Math.max(queryAt, 0))
    .filter((m) => m.role === 'user' || m.role === 'assistant').length;
  return { query, priorTurns };
}

/** The tool results the last user message sends back: a follow-up's, with their ids and texts. */
function toolResultsOf(messages: readonly Message[]): {
  followUp: boolean;
  toolResultIds: string[];
  toolResultTexts: string[];
} {
  const lastUser = [...messages].reverse().find((m) => m.role === 'user');
  const toolResultIds: string[] = [];
  const toolResultTexts: string[] = [];
  let followUp = false;
  for (const block of lastUser?.blocks ?? []) {
    if (block.type !== 'tool_result') continue;
    followUp = true;
    if (typeof block.tool_use_id === 'string') toolResultIds.push(block.tool_use_id);
    toolResultTexts.push(toolResultText(block.content));
  }
  return { followUp, toolResultIds, toolResultTexts };
}

/** What `parse` finds in the first text it finds anything in. */
function firstFound<T>(texts: readonly string[], parse: (text: string) => T | undefined): T | undefined {
  for (const text of texts) {
    const found = parse(text);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** A tool_result's content is a string or a list of blocks (text, tool_reference, image…); the texts, joined. */
function toolResultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return textsOf(content.filter(isRecord)).join('\n');
}
