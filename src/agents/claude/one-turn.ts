import { isRecord } from '../../guards.js';
import type { Usage } from '../../outcome.js';
import { jsonRecord } from '../process/json-line.js';
import type { InitInfo } from '../runs.js';
import { parseEvent, type StreamEvent } from './events.js';

/**
 * The reader of a one-turn `claude -p` stream (the round-trip gate's ping, an author call): the
 * answer, or the API error said instead, with the init event and the tokens. Pure.
 */

/** An entry of the init event's `plugins[]`: `{name, source}`, `source` being the plugin id. */
export interface InitPlugin {
  name: string;
  /** `stubplug@local-mkt`, `cc-plugin-privacy@builtin`, `x@inline` (docs/claude-cli.md §3). */
  source?: string;
}

/** `plugins[]` of an init line; empty when absent or of another shape. */
export function parseInitPlugins(line: string): InitPlugin[] {
  const value = jsonRecord(line);
  if (value === undefined || !Array.isArray(value.plugins)) return [];
  const plugins: InitPlugin[] = [];
  for (const entry of value.plugins) {
    if (!isRecord(entry) || typeof entry.name !== 'string') continue;
    plugins.push({ name: entry.name, ...(typeof entry.source === 'string' ? { source: entry.source } : {}) });
  }
  return plugins;
}

/** What the round-trip's stream said. */
export interface RoundTripReading {
  /** The init event: the roster of a stub-less run (the roster gate's input). */
  init?: InitInfo;
  /** `plugins[]` of the init event, to map a `plugin:skill` roster entry to its plugin id. */
  initPlugins: InitPlugin[];
  /** The model's answer (the `result` text, else its text blocks). */
  answer?: string;
  /** Set when the CLI reported an API or login failure instead of an answer. */
  apiError?: { status?: number; error?: string; text?: string };
  /** The tokens of the whole round trip (its `result`): a stub-less run's prompt, for cost estimates. */
  usage?: Usage;
  /** The model the API named in its answer (`message.model`): an alias or a short id resolved to the snapshot. */
  messageModel?: string;
}

/** What the round trip's failed messages said, gathered across its events. */
interface Failure {
  failed: boolean;
  status?: number | undefined;
  error?: string | undefined;
  errorText?: string | undefined;
}

/** Read the round-trip's stdout (stream-json lines). Pure; unknown lines are skipped. */
export function readRoundTrip(stdout: string): RoundTripReading {
  const reading: RoundTripReading = { initPlugins: [] };
  const texts: string[] = [];
  const failure: Failure = { failed: false };
  for (const raw of stdout.split('\n')) {
    const line = raw.trim();
    if (!line) continue;
    const event = parseEvent(line);
    switch (event.type) {
      case 'init':
        reading.init = {
          ...(event.model === undefined ? {} : { model: event.model }),
          ...(event.cliVersion === undefined ? {} : { cliVersion: event.cliVersion }),
          slashCommands: event.slashCommands,
          skills: event.skills,
          mcpServers: event.mcpServers,
        };
        reading.initPlugins = parseInitPlugins(line);
        break;
      case 'assistant':
        readAssistant(event, reading, texts, failure);
        break;
      case 'result':
        readResult(event, reading, failure);
        break;
      default:
        break;
    }
  }
  if (reading.answer === undefined && texts.length > 0) reading.answer = texts.join('');
  if (failure.failed) {
    const { status, error, errorText } = failure;
    reading.apiError = {
      ...(status === undefined ? {} : { status }),
      ...(error === undefined ? {} : { error }),
      ...(errorText === undefined ? {} : { text: errorText }),
    };
  }
  return reading;
}

/** A top-level assistant message: an API failure the CLI wrote as one, or the answer's text and model. */
function readAssistant(
  event: Extract<StreamEvent, { type: 'assistant' }>,
  reading: RoundTripReading,
  texts: string[],
  failure: Failure,
): void {
  if (event.parentToolUseId !== null) return;
  const text = event.blocks.map((b) => (b.kind === 'text' ? b.text : '')).join('');
  if (event.synthetic || event.error !== undefined) {
    failure.failed = true;
    failure.status ??= event.apiErrorStatus;
    failure.error ??= event.error;
    failure.errorText ??= text || undefined;
  } else {
    if (event.model !== undefined) reading.messageModel ??= event.model;
    if (text) texts.push(text);
  }
}

/** The result: the whole round trip's usage, and its answer or its error. */
function readResult(
  event: Extract<StreamEvent, { type: 'result' }>,
  reading: RoundTripReading,
  failure: Failure,
): void {
  // The CLI's own cost comes beside the usage; kept with it, it checks the price table (docs/cost.md).
  if (event.usage)
    reading.usage = event.costUsd === undefined ? event.usage : { ...event.usage, costUsd: event.costUsd };
  if (event.isError) {
    failure.failed = true;
    failure.status ??= event.apiErrorStatus;
    if (event.text) failure.errorText = event.text;
  } else if (event.text !== undefined) {
    reading.answer = event.text;
  }
}
