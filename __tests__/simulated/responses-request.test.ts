import { describe, expect, it } from 'vitest';
import { descriptionRule } from '../../src/simulated/description-script.js';
import { execCellSource, toOutputItems } from '../../src/simulated/responses-items.js';
import { parseResponsesView, parseSkillsInstructions } from '../../src/simulated/responses-request.js';

// Shaped as codex-cli 0.169.0 sends it (docs/codex.md "What the model is sent"), trimmed.
const SKILLS = [
  '<skills_instructions>',
  '## Skills',
  '### Skill roots',
  '- `r0` = `/h/skills/.system`',
  '- `r1` = `/p/.agents/skills`',
  '### Available skills',
  '- imagegen: Generate images. (file: r0/imagegen/SKILL.md)',
  '- pdf-stub-1a2b3c4d: Extract text: tables (and more). (file: r1/pdf-stub-1a2b3c4d/SKILL.md)',
  '</skills_instructions>',
].join('\n');

const message = (role: string, text: string) => ({
  type: 'message',
  role,
  content: [{ type: 'input_text', text }],
});

function body(extra: unknown[] = [], tools?: unknown[]) {
  return {
    model: 'gpt-sim',
    stream: true,
    prompt_cache_key: 'session-1',
    ...(tools ? { tools } : {}),
    input: [
      { type: 'additional_tools', role: 'developer', tools: [] },
      message('developer', SKILLS),
      message('user', '<environment_context>\n  <cwd>/p</cwd>\n</environment_context>'),
      message('user', 'Summarise report.pdf'),
      ...extra,
    ],
  };
}

describe('reading a Responses request', () => {
  it('finds the query, the listing with expanded files, the cwd and the stub', () => {
    const view = parseResponsesView(body());
    if (typeof view === 'string') throw new Error(view);
    expect(view.query).toBe('Summarise report.pdf');
    expect(view.cwd).toBe('/p');
    expect(view.listing.map((e) => e.name)).toEqual(['imagegen', 'pdf-stub-1a2b3c4d']);
    expect(view.stub).toEqual({ name: 'pdf-stub-1a2b3c4d', description: 'Extract text: tables (and more).' });
    expect(view.skillFiles.get('imagegen')).toBe('/h/skills/.system/imagegen/SKILL.md');
    expect(view.followUp).toBe(false);
    expect(view.session).toBe('session-1');
    expect(view.commandTool).toBe('exec');
  });

  it('tool outputs after the last user message make a follow-up', () => {
    const view = parseResponsesView(
      body([
        { type: 'custom_tool_call', call_id: 'c1', name: 'exec', input: 'x' },
        { type: 'custom_tool_call_output', call_id: 'c1', output: [{ type: 'input_text', text: 'A=1' }] },
      ]),
    );
    if (typeof view === 'string') throw new Error(view);
    expect(view.followUp).toBe(true);
    expect(view.toolResultIds).toEqual(['c1']);
    expect(view.toolResultTexts).toEqual(['A=1']);
  });

  it('an exec_command function in tools[] is the command tool a model with fallback metadata gets', () => {
    const view = parseResponsesView(body([], [{ type: 'function', name: 'exec_command' }]));
    expect(typeof view !== 'string' && view.commandTool).toBe('exec_command');
  });

  it('the same scripts read it: the text rule sees the listed stub description', () => {
    const view = parseResponsesView(body());
    if (typeof view === 'string') throw new Error(view);
    const ctx = { occurrence: 0, random: () => 0.5 };
    const rate = (description: string) => (description.startsWith('Extract text') ? 1 : 0);
    expect(descriptionRule({ rate })(view, ctx)).toEqual({ kind: 'skill' });
    expect(descriptionRule({ rate: () => 0 })(view, ctx)).toEqual({ kind: 'text' });
  });

  it('a body that is not a Responses request is refused with a reason', () => {
    expect(parseResponsesView({ input: [] })).toMatch(/model/);
    expect(parseResponsesView({ model: 'm' })).toMatch(/input/);
  });

  it('an entry whose description the budget removed is listed with an empty description', () => {
    const text =
      '<skills_instructions>\n- `r1` = `/p`\n- a: (file: r1/a/SKILL.md)\n- b: Text. (file: r1/b/SKILL.md)\n</skills_instructions>';
    expect(parseSkillsInstructions(text).listing).toEqual([
      { name: 'a', description: '' },
      { name: 'b', description: 'Text.' },
    ]);
  });

  it('no skills section: an empty listing', () => {
    expect(parseSkillsInstructions('nothing here')).toEqual({ listing: [], files: new Map() });
  });
});

describe('answer blocks as Responses items', () => {
  it('a Skill call reads the named skill file through the offered tool; text before a call is commentary', () => {
    const view = parseResponsesView(body());
    if (typeof view === 'string') throw new Error(view);
    const items = toOutputItems(
      [
        { type: 'text', text: 'Let me look.' },
        { type: 'tool_use', id: 'toolu_1', name: 'Skill', input: { skill: 'pdf-stub-1a2b3c4d' } },
      ],
      view,
    );
    expect(items[0]).toMatchObject({ type: 'message', phase: 'commentary' });
    expect(items[1]).toMatchObject({ type: 'custom_tool_call', name: 'exec', call_id: 'toolu_1' });
    expect(String(items[1]?.input)).toContain('cat /p/.agents/skills/pdf-stub-1a2b3c4d/SKILL.md');
    const fallback = toOutputItems(
      [{ type: 'tool_use', id: 'toolu_2', name: 'Bash', input: { command: 'ls' } }],
      { ...view, commandTool: 'exec_command' },
    );
    expect(fallback[0]).toMatchObject({
      type: 'function_call',
      name: 'exec_command',
      arguments: '{"cmd":"ls"}',
    });
  });

  it('with a cell shape, the calls of one message become one exec cell under the first call id', () => {
    const view = parseResponsesView(body());
    if (typeof view === 'string') throw new Error(view);
    const blocks = [
      { type: 'text' as const, text: 'Looking.' },
      { type: 'tool_use' as const, id: 'toolu_1', name: 'Bash', input: { command: 'ls -la' } },
      { type: 'tool_use' as const, id: 'toolu_2', name: 'Skill', input: { skill: 'pdf-stub-1a2b3c4d' } },
    ];
    const sequential = toOutputItems(blocks, view, 'sequential');
    expect(sequential.map((i) => i.type)).toEqual(['message', 'custom_tool_call']);
    expect(sequential[1]).toMatchObject({ call_id: 'toolu_1', name: 'exec' });
    expect(sequential[1]?.input).toBe(
      execCellSource(['ls -la', 'cat /p/.agents/skills/pdf-stub-1a2b3c4d/SKILL.md'], 'sequential'),
    );
    const parallel = String(toOutputItems(blocks, view, 'parallel')[1]?.input);
    expect(parallel).toMatch(
      /^const \[r0, r1\] = await Promise\.all\(\[tools\.exec_command\(\{ cmd: "ls -la" \}\), /,
    );
    // Without the exec tool there are no cells: one function call per command.
    const direct = toOutputItems(blocks, { ...view, commandTool: 'exec_command' }, 'sequential');
    expect(direct.map((i) => i.type)).toEqual(['message', 'function_call', 'function_call']);
  });

  it('a sequential cell awaits each command before the next', () => {
    expect(execCellSource(['ls', 'pwd'], 'sequential')).toBe(
      [
        'const r0 = await tools.exec_command({ cmd: "ls" });',
        'text(r0);',
        'const r1 = await tools.exec_command({ cmd: "pwd" });',
        'text(r1);',
      ].join('\n'),
    );
  });
});
