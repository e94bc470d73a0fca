import { describe, expect, it } from 'vitest';
import { parseAvailableSkills, parseGeminiView } from '../../src/simulated/gemini-request.js';

const skill = (name: string, description: string, location: string) =>
  `  <skill>\n    <name>${name}</name>\n    <description>${description}</description>\n    <location>${location}</location>\n  </skill>`;

const SYSTEM = [
  '# Available Agent Skills',
  '',
  '<available_skills>',
  skill('skill-creator', 'Guide for creating skills.', '/b/skill-creator/SKILL.md'),
  skill(
    'pdf-stub-1a2b3c4d',
    'Raw <tags> & "quotes"\nand a </description> inside',
    '/p/.agents/skills/pdf-stub-1a2b3c4d/SKILL.md',
  ),
  '</available_skills>',
].join('\n');

describe('reading a Gemini request', () => {
  it('lists the skills with their unescaped descriptions and their files', () => {
    const { listing, files } = parseAvailableSkills(SYSTEM);
    expect(listing).toEqual([
      { name: 'skill-creator', description: 'Guide for creating skills.' },
      { name: 'pdf-stub-1a2b3c4d', description: 'Raw <tags> & "quotes"\nand a </description> inside' },
    ]);
    expect(files.get('pdf-stub-1a2b3c4d')).toBe('/p/.agents/skills/pdf-stub-1a2b3c4d/SKILL.md');
  });

  it('takes the query from the last user turn, without the session context', () => {
    const body = {
      contents: [
        {
          role: 'user',
          parts: [
            { text: '<session_context>\n- **Workspace Directories:**\n  - /p\n</session_context>' },
            { text: 'Summarise inv.pdf' },
          ],
        },
      ],
      systemInstruction: { parts: [{ text: SYSTEM }] },
    };
    const view = parseGeminiView(body, 'gemini-sim');
    expect(view).toMatchObject({
      query: 'Summarise inv.pdf',
      cwd: '/p',
      model: 'gemini-sim',
      followUp: false,
    });
    expect(typeof view !== 'string' && view.stub?.name).toBe('pdf-stub-1a2b3c4d');
  });

  it('a function response in the last turn makes a follow-up, keyed by the call ids', () => {
    const body = {
      contents: [
        { role: 'user', parts: [{ text: 'q' }] },
        { role: 'model', parts: [{ functionCall: { id: 'toolu_1', name: 'glob', args: {} } }] },
        {
          role: 'user',
          parts: [{ functionResponse: { id: 'toolu_1', name: 'glob', response: { error: 'denied' } } }],
        },
      ],
    };
    expect(parseGeminiView(body, 'm')).toMatchObject({
      query: 'q',
      followUp: true,
      toolResultIds: ['toolu_1'],
      toolResultTexts: ['denied'],
    });
  });

  it('a body without contents is refused', () => {
    expect(typeof parseGeminiView({}, 'm')).toBe('string');
    expect(typeof parseGeminiView('x', 'm')).toBe('string');
  });
});
