/**
 * The wire shapes of an assistant answer: the SSE event sequence of a streaming response and the JSON
 * body of a non-streaming one, as the Messages API sends them.
 */
import { randomBytes } from 'node:crypto';

export type AnswerBlock =
  | { type: 'text'; text: string }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> };

export type StopReason = 'end_turn' | 'tool_use';

export interface Answer {
  id: string;
  model: string;
  blocks: AnswerBlock[];
  stopReason: StopReason;
  inputTokens: number;
  /** The prompt tokens the simulated prompt cache served (read) or stored (creation). */
  cacheReadTokens?: number;
  cacheCreationTokens?: number;
}

export interface SseEvent {
  event: string;
  data: Record<string, unknown>;
}

/** Small enough that a Skill call's input arrives over several deltas, as with the real API. */
const JSON_CHUNK = 6;
const TEXT_CHUNK = 8;

let counter = 0;

/** Unique per process: the CLI groups its `assistant` events by message id. */
export function newId(prefix: 'msg_sim_' | 'toolu_sim_' | 'req_sim_'): string {
  counter += 1;
  return `${prefix}${counter.toString(16).padStart(6, '0')}${randomBytes(9).toString('hex')}`;
}

/** The thinking signature is opaque to the CLI; only the real API verifies it when sent back. */
export function newSignature(): string {
  return randomBytes(96).toString('base64');
}

/** Roughly 4 characters per token, as for English text. */
export function estimateTokens(chars: number): number {
  return Math.max(1, Math.ceil(chars / 4));
}

export function outputTokens(blocks: AnswerBlock[]): number {
  let chars = 0;
  for (const block of blocks) {
    if (block.type === 'text') chars += block.text.length;
    else if (block.type === 'thinking') chars += block.thinking.length;
    else chars += block.name.length + JSON.stringify(block.input).length;
  }
  return estimateTokens(chars) + 4;
}

function chunks(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

type PromptTokens = Pick<Answer, 'inputTokens' | 'cacheReadTokens' | 'cacheCreationTokens'>;

function usage(prompt: PromptTokens, output: number): Record<string, unknown> {
  return {
    input_tokens: prompt.inputTokens,
    cache_creation_input_tokens: prompt.cacheCreationTokens ?? 0,
    cache_read_input_tokens: prompt.cacheReadTokens ?? 0,
    output_tokens: output,
    service_tier: 'standard',
  };
}

export function messageStart(
  answer: Pick<Answer, 'id' | 'model' | 'inputTokens' | 'cacheReadTokens' | 'cacheCreationTokens'>,
): SseEvent {
  return {
    event: 'message_start',
    data: {
      type: 'message_start',
      message: {
        id: answer.id,
        type: 'message',
        role: 'assistant',
        model: answer.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: usage(answer, 1),
      },
    },
  };
}

function blockStart(index: number, block: AnswerBlock): SseEvent {
  const contentBlock =
    block.type === 'text'
      ? { type: 'text', text: '' }
      : block.type === 'thinking'
        ? { type: 'thinking', thinking: '', signature: '' }
        : { type: 'tool_use', id: block.id, name: block.name, input: {} };
  return {
    event: 'content_block_start',
    data: { type: 'content_block_start', index, content_block: contentBlock },
  };
}

function delta(index: number, payload: Record<string, unknown>): SseEvent {
  return { event: 'content_block_delta', data: { type: 'content_block_delta', index, delta: payload } };
}

function blockDeltas(index: number, block: AnswerBlock): SseEvent[] {
  switch (block.type) {
    case 'text':
      return chunks(block.text, TEXT_CHUNK).map((text) => delta(index, { type: 'text_delta', text }));
    case 'thinking':
      return [
        ...chunks(block.thinking, TEXT_CHUNK).map((thinking) =>
          delta(index, { type: 'thinking_delta', thinking }),
        ),
        delta(index, { type: 'signature_delta', signature: block.signature }),
      ];
    case 'tool_use':
      return chunks(JSON.stringify(block.input), JSON_CHUNK).map((partial) =>
        delta(index, { type: 'input_json_delta', partial_json: partial }),
      );
  }
}

/** The start of one content block and all its deltas, without the stop: what a cut stream shows. */
export function openBlockEvents(index: number, block: AnswerBlock): SseEvent[] {
  return [blockStart(index, block), ...blockDeltas(index, block)];
}

/** The full event sequence of a streamed answer. */
export function answerEvents(answer: Answer): SseEvent[] {
  const events: SseEvent[] = [messageStart(answer), { event: 'ping', data: { type: 'ping' } }];
  answer.blocks.forEach((block, index) => {
    events.push(...openBlockEvents(index, block));
    events.push({ event: 'content_block_stop', data: { type: 'content_block_stop', index } });
  });
  events.push({
    event: 'message_delta',
    data: {
      type: 'message_delta',
      delta: { stop_reason: answer.stopReason, stop_sequence: null },
      usage: { output_tokens: outputTokens(answer.blocks) },
    },
  });
  events.push({ event: 'message_stop', data: { type: 'message_stop' } });
  return events;
}

export function formatSse(event: SseEvent): string {
  return `event: ${event.event}\ndata: ${JSON.stringify(event.data)}\n\n`;
}

/** The body of a non-streaming (`stream:false`) answer. */
export function answerMessage(answer: Answer): Record<string, unknown> {
  return {
    id: answer.id,
    type: 'message',
    role: 'assistant',
    model: answer.model,
    content: answer.blocks,
    stop_reason: answer.stopReason,
    stop_sequence: null,
    usage: usage(answer, outputTokens(answer.blocks)),
  };
}
