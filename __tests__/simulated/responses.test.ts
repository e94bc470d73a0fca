/**
 * The simulated Responses API over HTTP: a `tool-calls` behaviour's pause between output items, so
 * that an agent runs the first call before the next one arrives (the response-boundary cases of
 * docs/codex.md "The decision").
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SimulatedModel, startSimulatedModel } from '../../src/simulated/model.js';

const SKILLS = [
  '<skills_instructions>',
  '- `r1` = `/p/.agents/skills`',
  '- pdf-stub-1a2b3c4d: Extract text. (file: r1/pdf-stub-1a2b3c4d/SKILL.md)',
  '</skills_instructions>',
].join('\n');
const GAP_MS = 400;

let model: SimulatedModel;

beforeAll(async () => {
  model = await startSimulatedModel({
    chunkDelayMs: 0,
    script: (req) => ({
      kind: 'tool-calls',
      calls: [
        { name: 'Bash', input: { command: 'ls -la' } },
        { name: 'Skill', input: { skill: req.stub?.name } },
      ],
      ...(req.query === 'paused' ? { gapMs: GAP_MS } : {}),
    }),
  });
});

afterAll(async () => {
  await model?.close();
});

/** Posts a first turn; returns each `output_item.done` item's type and how long after the request it arrived. */
async function itemsOf(query: string): Promise<Array<{ type: string; at: number }>> {
  const sent = Date.now();
  const response = await fetch(`${model.url}/v1/responses`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      model: 'gpt-sim',
      stream: true,
      tools: [{ type: 'function', name: 'exec_command' }],
      input: [
        { type: 'message', role: 'developer', content: [{ type: 'input_text', text: SKILLS }] },
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: query }] },
      ],
    }),
  });
  const items: Array<{ type: string; at: number }> = [];
  const decoder = new TextDecoder();
  let text = '';
  for await (const chunk of response.body ?? []) {
    text += decoder.decode(chunk, { stream: true });
    const events = text.split('\n\n');
    text = events.pop() ?? '';
    for (const event of events) {
      const data = /^data: (.*)$/m.exec(event)?.[1];
      const parsed =
        data === undefined ? undefined : (JSON.parse(data) as { type?: string; item?: { type?: string } });
      if (parsed?.type === 'response.output_item.done')
        items.push({ type: String(parsed.item?.type), at: Date.now() - sent });
    }
  }
  return items;
}

describe('the simulated Responses API', () => {
  it('with gapMs, the second call cannot arrive before the pause is over', async () => {
    const paused = await itemsOf('paused');
    expect(paused.map((i) => i.type)).toEqual(['function_call', 'function_call']);
    // A lower bound only: the server waits that long before it writes the second item.
    expect(paused[1]?.at ?? 0).toBeGreaterThanOrEqual(GAP_MS);
  });

  it('without it, the items follow at once', async () => {
    const items = await itemsOf('at once');
    expect(items.map((i) => i.type)).toEqual(['function_call', 'function_call']);
  });
});
