/**
 * The simulated model's answer blocks (plan.ts, written for the Messages API) as Responses API
 * output items, the way Codex's model would act on the same choice (docs/codex.md):
 * - a Skill call naming a listed skill → a shell read of that skill's SKILL.md (`cat <path>`), the
 *   path expanded from the listing's alias as the instructions tell the model to;
 * - a Read (`read-stub`) → `sed -n '1,200p' <stub SKILL.md>`; a Bash call → that command;
 * - each command is a call of the tool the request offers: the `exec` custom tool (JavaScript that
 *   awaits `tools.exec_command`; Codex prints only the nested command), or the `exec_command`
 *   function for a model Codex has no metadata for;
 * - ToolSearch (preparation, not a choice) → an `exec` cell that runs no command, which Codex
 *   does not print (a reasoning item where only `exec_command` is offered);
 * - text → an assistant message (`commentary` when calls follow it, else `final_answer`);
 *   thinking → a reasoning item.
 * The call ids are the blocks' tool_use ids, so plan.ts's continuations key the follow-up.
 */
import { randomBytes } from 'node:crypto';
import type { ResponsesView } from './responses-request.js';
import type { CellShape } from './script.js';
import type { AnswerBlock } from './sse.js';

export type OutputItem = Record<string, unknown> & { type: string };

let counter = 0;

export function itemId(prefix: 'msg' | 'rs' | 'ctc' | 'fc' | 'resp'): string {
  counter += 1;
  return `${prefix}_sim_${counter.toString(16).padStart(6, '0')}${randomBytes(6).toString('hex')}`;
}

/** POSIX single quotes: safe for any path. */
export function shellQuote(value: string): string {
  return /^[A-Za-z0-9_./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

function skillFile(view: ResponsesView, name: string): string {
  const bare = name.replace(/^\//, '');
  return view.skillFiles.get(bare) ?? `${view.cwd ?? '.'}/.agents/skills/${bare}/SKILL.md`;
}

/** The command a tool_use block stands for, or undefined for one that runs none. */
export function commandOf(
  block: AnswerBlock & { type: 'tool_use' },
  view: ResponsesView,
): string | undefined {
  const { name, input } = block;
  if (name === 'Skill' || name === 'SlashCommand') {
    const named = input.skill ?? input.command;
    return typeof named === 'string' ? `cat ${shellQuote(skillFile(view, named))}` : undefined;
  }
  if (name === 'Read') {
    const file = view.stub === undefined ? String(input.file_path ?? '') : skillFile(view, view.stub.name);
    return `sed -n '1,200p' ${shellQuote(file)}`;
  }
  if (name === 'ToolSearch') return undefined;
  return typeof input.command === 'string' ? input.command : undefined;
}

/** The `exec` tool's JavaScript for one command (or for none: the cell only reports the tool count). */
export function execSource(command: string | undefined): string {
  if (command === undefined) return 'text(String(ALL_TOOLS.length));';
  return `const result = await tools.exec_command({ cmd: ${JSON.stringify(command)} });\ntext(result);`;
}

/**
 * One `exec` cell running several commands: awaited one after the other, or all at once
 * (`Promise.all`), as a model writes a cell that lists a folder and reads a file.
 */
export function execCellSource(commands: readonly string[], shape: CellShape): string {
  const call = (command: string): string => `tools.exec_command({ cmd: ${JSON.stringify(command)} })`;
  if (shape === 'parallel') {
    const names = commands.map((_, i) => `r${i}`);
    return [
      `const [${names.join(', ')}] = await Promise.all([${commands.map(call).join(', ')}]);`,
      ...names.map((name) => `text(${name});`),
    ].join('\n');
  }
  return commands
    .flatMap((command, i) => [`const r${i} = await ${call(command)};`, `text(r${i});`])
    .join('\n');
}

function message(text: string, phase: 'commentary' | 'final_answer'): OutputItem {
  return {
    type: 'message',
    id: itemId('msg'),
    role: 'assistant',
    status: 'completed',
    phase,
    content: [{ type: 'output_text', text, annotations: [] }],
  };
}

function reasoning(text: string): OutputItem {
  return {
    type: 'reasoning',
    id: itemId('rs'),
    summary: [{ type: 'summary_text', text }],
    encrypted_content: null,
  };
}

export function toOutputItems(
  blocks: readonly AnswerBlock[],
  view: ResponsesView,
  cell?: CellShape,
): OutputItem[] {
  const lastCall = blocks.map((b) => b.type).lastIndexOf('tool_use');
  const items = blocks.map((block, index) => itemOf(block, index < lastCall, view));
  if (cell === undefined || view.commandTool !== 'exec') return items;
  return inOneCell(blocks, items, view, cell);
}

/** The calls' cells merged into one, at the first call's place, under the first call's id. */
function inOneCell(
  blocks: readonly AnswerBlock[],
  items: OutputItem[],
  view: ResponsesView,
  shape: CellShape,
): OutputItem[] {
  const calls = blocks.filter((b): b is AnswerBlock & { type: 'tool_use' } => b.type === 'tool_use');
  const commands = calls.map((b) => commandOf(b, view)).filter((c): c is string => c !== undefined);
  const first = blocks.findIndex((b) => b.type === 'tool_use');
  const out: OutputItem[] = [];
  for (const [index, item] of items.entries()) {
    if (blocks[index]?.type !== 'tool_use') out.push(item);
    else if (index === first) out.push({ ...item, input: execCellSource(commands, shape) });
  }
  return out;
}

function itemOf(block: AnswerBlock, callsFollow: boolean, view: ResponsesView): OutputItem {
  switch (block.type) {
    case 'text':
      return message(block.text, callsFollow ? 'commentary' : 'final_answer');
    case 'thinking':
      return reasoning(block.thinking);
    case 'tool_use': {
      const command = commandOf(block, view);
      if (view.commandTool === 'exec_command') {
        // No exec cell without a command in this shape: a neutral call becomes reasoning.
        if (command === undefined) return reasoning('Looking up the tools.');
        return {
          type: 'function_call',
          id: itemId('fc'),
          status: 'completed',
          call_id: block.id,
          name: 'exec_command',
          arguments: JSON.stringify({ cmd: command }),
        };
      }
      return {
        type: 'custom_tool_call',
        id: itemId('ctc'),
        status: 'completed',
        call_id: block.id,
        name: 'exec',
        input: execSource(command),
      };
    }
  }
}
