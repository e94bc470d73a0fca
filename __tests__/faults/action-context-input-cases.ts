import type { ActionInputCase } from './bad-input-cases.js';

/**
 * The bad values of the Action's context inputs (`context`, `versus-fresh`), as ACTION_INPUT_CASES
 * cases (it lists them at its end; bad-inputs.e2e runs them). Each stops the step with exit 1 before
 * claude is started: the settings refuse a value, and the `context` file is read and checked before
 * the gates. A context file is written into the workspace under its case's own name.
 */

const relativeContext =
  'input context: expected a context file relative to the workspace, such as .github/contexts/mid-session.json (no leading / and no ..)';

export const ACTION_CONTEXT_INPUT_CASES: readonly ActionInputCase[] = [
  {
    id: 'action-context-absolute',
    input: 'context',
    value: '/etc/skilltrigger-context.json',
    what: 'an absolute path',
    error: `${relativeContext}, got "/etc/skilltrigger-context.json"`,
    exit: 1,
  },
  {
    id: 'action-context-parent',
    input: 'context',
    value: '../context.json',
    what: 'a path leaving the workspace',
    error: `${relativeContext}, got "../context.json"`,
    exit: 1,
  },
  {
    id: 'action-context-with-fill',
    input: 'context',
    value: '.github/context.json',
    with: { 'context-fill': '2000' },
    what: 'a context file beside context-fill',
    error:
      'input context: context and context-fill both give every query its earlier turns. Fix: keep one of them, and leave the other empty',
    exit: 1,
  },
  {
    id: 'action-context-missing',
    input: 'context',
    value: '.github/no-such-context.json',
    what: 'the file does not exist',
    error:
      'input context: .github/no-such-context.json: the context file does not exist. Fix: set context to a context file in the repository, as a path relative to the workspace (docs/context.md), or leave it empty',
    exit: 1,
  },
  {
    id: 'action-context-system-role',
    input: 'context',
    value: '.github/context-system-role.json',
    files: {
      '.github/context-system-role.json':
        '[\n  {"role": "user", "content": "fix the build"},\n  {"role": "system", "content": "be brief"}\n]\n',
    },
    what: 'a turn whose role is neither user nor assistant',
    error:
      'input context: .github/context-system-role.json:line 3 (turn #2): has the role the string "system". Fix: give "role": "user" or "role": "assistant"',
    exit: 1,
  },
  {
    id: 'action-versus-fresh-yes',
    input: 'versus-fresh',
    value: 'yes',
    what: 'yes instead of true',
    error: 'input versus-fresh: expected true or false, got "yes"',
    exit: 1,
  },
];
