import { isRecord } from '../guards.js';
import { type ListingEntry, type RequestView, requestView, type StubRules } from './request.js';

/**
 * Reading a Gemini API request (`POST /v1beta/models/<model>:streamGenerateContent`) as Gemini CLI
 * sends it, into the same view the Messages side builds: the skill listing of the
 * `<available_skills>` section of `systemInstruction`, the user's query from the last user turn (its
 * `<session_context>` part left out), the workspace folder, and whether this is a later request of
 * the same run (function responses in the last user turn). docs/gemini.md shows the shapes.
 */

/** The Messages view, plus where each listed skill's SKILL.md is (its `<location>`). */
export interface GeminiView extends RequestView {
  /** Listed name → absolute SKILL.md path. */
  skillFiles: Map<string, string>;
}

const SKILL_OPEN = '<skill>\n    <name>';
const NAME_CLOSE = '</name>\n    <description>';
const DESCRIPTION_CLOSE = '</description>\n    <location>';
const LOCATION_CLOSE = '</location>\n  </skill>';

/**
 * The entries of `<available_skills>`. The CLI writes each description as YAML parsed it, unescaped,
 * so a description may hold `<`, `&` or even `</description>`: each field runs to the delimiter that
 * closes it together with the next tag's opening, which a description spans only by writing that
 * whole line-and-indent sequence itself.
 */
export function parseAvailableSkills(text: string): { listing: ListingEntry[]; files: Map<string, string> } {
  const listing: ListingEntry[] = [];
  const files = new Map<string, string>();
  const start = text.indexOf('<available_skills>');
  if (start < 0) return { listing, files };
  let at = start;
  for (;;) {
    const open = text.indexOf(SKILL_OPEN, at);
    if (open < 0) break;
    const nameEnd = text.indexOf(NAME_CLOSE, open);
    const descriptionEnd = nameEnd < 0 ? -1 : text.indexOf(DESCRIPTION_CLOSE, nameEnd);
    const locationEnd = descriptionEnd < 0 ? -1 : text.indexOf(LOCATION_CLOSE, descriptionEnd);
    if (locationEnd < 0) break;
    const name = text.slice(open + SKILL_OPEN.length, nameEnd);
    listing.push({ name, description: text.slice(nameEnd + NAME_CLOSE.length, descriptionEnd) });
    files.set(name, text.slice(descriptionEnd + DESCRIPTION_CLOSE.length, locationEnd));
    at = locationEnd + LOCATION_CLOSE.length;
  }
  return { listing, files };
}

interface Content {
  role: string;
  parts: Record<string, unknown>[];
}

function contentOf(value: unknown): Content | undefined {
  if (!isRecord(value) || !Array.isArray(value.parts)) return undefined;
  return { role: typeof value.role === 'string' ? value.role : 'user', parts: value.parts.filter(isRecord) };
}

function textsOf(parts: Record<string, unknown>[]): string[] {
  return parts.map((p) => p.text).filter((t): t is string => typeof t === 'string');
}

/** The function response's text: its `output`, else its `error`, else the whole response. */
function responseText(part: Record<string, unknown>): string {
  const response = isRecord(part.functionResponse) ? part.functionResponse.response : undefined;
  if (!isRecord(response)) return '';
  for (const key of ['output', 'error'] as const)
    if (typeof response[key] === 'string') return response[key] as string;
  return JSON.stringify(response);
}

/** `- **Workspace Directories:**` then `  - /abs/project` in the first user turn's session context. */
export function parseWorkspace(text: string): string | undefined {
  return /Workspace Directories:\*\*\n\s*- (.+)/.exec(text)?.[1]?.trim();
}

/**
 * Reads a generateContent body. `model` comes from the URL path. Returns a reason string when the
 * body is not a request, so the fake can answer 400 as the API would.
 */
export function parseGeminiView(body: unknown, model: string, rules: StubRules = {}): GeminiView | string {
  if (!isRecord(body)) return 'Invalid JSON payload received.';
  if (!Array.isArray(body.contents)) return '* GenerateContentRequest.contents: contents is not specified';
  const contents = body.contents.map(contentOf).filter((c): c is Content => c !== undefined);
  const system = isRecord(body.systemInstruction) ? contentOf(body.systemInstruction) : undefined;
  const systemText = textsOf(system?.parts ?? []).join('\n');
  const { listing, files } = parseAvailableSkills(systemText);

  const last = contents[contents.length - 1];
  const responses = (last?.role === 'user' ? last.parts : []).filter((p) => isRecord(p.functionResponse));
  const toolResultIds = responses
    .map((p) => (isRecord(p.functionResponse) ? p.functionResponse.id : undefined))
    .filter((id): id is string => typeof id === 'string');
  const lastUser = [...contents].reverse().find((c) => c.role === 'user' && textsOf(c.parts).length > 0);
  const query = textsOf(lastUser?.parts ?? [])
    .filter((t) => !t.trimStart().startsWith('<session_context>'))
    .join('\n')
    .trim();
  let cwd: string | undefined;
  for (const content of contents) {
    for (const text of textsOf(content.parts)) cwd ??= parseWorkspace(text);
  }
  const findings = {
    query,
    listing,
    cwd,
    followUp: responses.length > 0,
    toolResultIds,
    toolResultTexts: responses.map(responseText),
  };
  // Only the streaming method streams; `generateContent` answers one JSON body.
  return { ...requestView(model, true, findings, rules), skillFiles: files };
}
