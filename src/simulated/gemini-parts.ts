/**
 * The simulated model's answer blocks (plan.ts, written for the Messages API) as Gemini API parts,
 * the way Gemini's model would act on the same choice (docs/gemini.md):
 * - a Skill call naming a listed skill → `activate_skill` with that name;
 * - a Read (`read-stub`) → `read_file` of the stub's SKILL.md, the path its `<location>` gives;
 * - a Bash call → `run_shell_command` with the same command;
 * - ToolSearch (preparation, not a choice) → a thought, as Gemini has no such tool;
 * - text → a text part; thinking → a thought part.
 * Each call carries the block's id as `functionCall.id`: Gemini CLI keeps it and sends it back in the
 * `functionResponse`, so plan.ts's continuations key the follow-up.
 */
import type { GeminiView } from './gemini-request.js';
import type { AnswerBlock } from './sse.js';

export type GeminiPart = Record<string, unknown>;

function skillFile(view: GeminiView, name: string): string {
  return view.skillFiles.get(name) ?? `${view.cwd ?? '.'}/.agents/skills/${name}/SKILL.md`;
}

function call(id: string, name: string, args: Record<string, unknown>): GeminiPart {
  return { functionCall: { id, name, args } };
}

export function partOf(block: AnswerBlock, view: GeminiView): GeminiPart {
  switch (block.type) {
    case 'text':
      return { text: block.text };
    case 'thinking':
      return { text: block.thinking, thought: true };
    case 'tool_use': {
      const { id, name, input } = block;
      if (name === 'Skill' || name === 'SlashCommand') {
        const named = String(input.skill ?? input.command ?? '').replace(/^\//, '');
        return call(id, 'activate_skill', { name: named });
      }
      if (name === 'Read') {
        const file =
          view.stub === undefined ? String(input.file_path ?? '') : skillFile(view, view.stub.name);
        return call(id, 'read_file', { file_path: file });
      }
      if (name === 'ToolSearch') return { text: 'Looking up the tools.', thought: true };
      if (name === 'Bash')
        return call(id, 'run_shell_command', {
          command: String(input.command ?? ''),
          description: String(input.description ?? ''),
        });
      return call(id, name, input);
    }
  }
}

export function toGeminiParts(blocks: readonly AnswerBlock[], view: GeminiView): GeminiPart[] {
  return blocks.map((block) => partOf(block, view));
}
