import { isRecord } from '../../guards.js';
import type { Usage } from '../../outcome.js';
import { asNumber, asString, jsonRecord } from '../process/json-line.js';

/**
 * The `gemini --output-format stream-json` lines the Gemini decision reads (docs/gemini.md "What
 * stream-json prints"), parsed from `unknown`. A line that is not JSON, or an event type this version
 * does not know, becomes `other`/`unparseable`: a new event type must never crash a run.
 */
export type GeminiEvent =
  | { type: 'init'; sessionId?: string; model?: string }
  /** The user's prompt echoed, or a chunk of the model's text (`delta: true`). */
  | { type: 'message'; role: 'user' | 'assistant' | 'other'; content: string }
  /** Printed as the model's call arrives, before the tool runs (or is refused). */
  | { type: 'tool-use'; toolName: string; toolId: string; parameters: Record<string, unknown> }
  | { type: 'tool-result'; toolId: string; status: string }
  /** A non-fatal notice inside the run (a warning, a loop detected). */
  | { type: 'error'; message: string }
  | { type: 'result'; status: 'success' | 'error' | 'other'; errorMessage?: string; usage?: Usage }
  | { type: 'other'; name: string }
  | { type: 'unparseable' };

/**
 * result.stats: `input_tokens` includes the `cached` part (Gemini's promptTokenCount and
 * cachedContentTokenCount), `output_tokens` the answer's.
 */
function parseStats(value: unknown): Usage | undefined {
  if (!isRecord(value)) return undefined;
  const n = (key: string): number => Math.max(0, asNumber(value[key]) ?? 0);
  const cached = n('cached');
  return {
    inputTokens: Math.max(0, n('input_tokens') - cached),
    outputTokens: n('output_tokens'),
    cacheReadInputTokens: cached,
    cacheCreationInputTokens: 0,
  };
}

function role(value: unknown): 'user' | 'assistant' | 'other' {
  return value === 'user' || value === 'assistant' ? value : 'other';
}

function parseResult(value: Record<string, unknown>): GeminiEvent {
  const status = value.status === 'success' || value.status === 'error' ? value.status : 'other';
  const error = isRecord(value.error) ? asString(value.error.message) : undefined;
  const usage = parseStats(value.stats);
  return {
    type: 'result',
    status,
    ...(error === undefined ? {} : { errorMessage: error }),
    ...(usage === undefined ? {} : { usage }),
  };
}

export function parseGeminiEvent(line: string): GeminiEvent {
  const value = jsonRecord(line);
  if (value === undefined) return { type: 'unparseable' };
  const type = asString(value.type) ?? '';
  switch (type) {
    case 'init': {
      const sessionId = asString(value.session_id);
      const model = asString(value.model);
      return {
        type: 'init',
        ...(sessionId === undefined ? {} : { sessionId }),
        ...(model === undefined ? {} : { model }),
      };
    }
    case 'message':
      return { type: 'message', role: role(value.role), content: asString(value.content) ?? '' };
    case 'tool_use':
      return {
        type: 'tool-use',
        toolName: asString(value.tool_name) ?? '',
        toolId: asString(value.tool_id) ?? '',
        parameters: isRecord(value.parameters) ? value.parameters : {},
      };
    case 'tool_result':
      return {
        type: 'tool-result',
        toolId: asString(value.tool_id) ?? '',
        status: asString(value.status) ?? '',
      };
    case 'error':
      return { type: 'error', message: asString(value.message) ?? '' };
    case 'result':
      return parseResult(value);
    default:
      return { type: 'other', name: type };
  }
}
