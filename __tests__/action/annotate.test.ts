import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { annotate, failStep } from '../../src/action/annotate.js';
import { SECRET_VARIABLES } from '../../src/agents/registry.js';
import { registerSecrets } from '../../src/mask.js';

/**
 * The Action's annotations and its failure line are masked: a registered key (of no known shape)
 * and a stray `sk-ant-` token never reach the workflow command @actions/core writes to stdout.
 * What is written is read back from stdout itself, as the runner reads it.
 */
const KEY = 'gw-key-annotate-canary-93f1';
const STRAY = 'sk-ant-api03-stray_in_an_annotation';

let written: string[];
let write: typeof process.stdout.write;

beforeEach(() => {
  registerSecrets({ ANTHROPIC_API_KEY: KEY }, SECRET_VARIABLES);
  written = [];
  write = process.stdout.write;
  process.stdout.write = ((chunk: string | Uint8Array) => {
    written.push(String(chunk));
    return true;
  }) as typeof process.stdout.write;
});

afterEach(() => {
  process.stdout.write = write;
  process.exitCode = undefined;
});

describe('annotate', () => {
  it.each(['error', 'warning', 'notice'] as const)('masks a %s’s message and title', (level) => {
    annotate(level, `upstream said ${KEY} and ${STRAY}`, {
      title: `gate failed: ${KEY}`,
      file: '.claude/skills/a/SKILL.md',
      startLine: 3,
    });
    const out = written.join('');
    expect(out).toMatch(new RegExp(`^::${level} `));
    // Workflow commands escape `:` in a property as %3A.
    expect(out).toContain('title=gate failed%3A ***');
    expect(out).toContain('file=.claude/skills/a/SKILL.md');
    expect(out).toContain('upstream said *** and ***');
    expect(out).not.toContain(KEY);
    expect(out).not.toContain(STRAY);
  });

  it('masks the failure line', () => {
    failStep(`the round-trip failed: ${KEY}`);
    const out = written.join('');
    expect(out).toContain('::error::the round-trip failed: ***');
    expect(out).not.toContain(KEY);
    expect(process.exitCode).toBe(1);
  });
});
