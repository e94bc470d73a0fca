import { describe, expect, it } from 'vitest';
import { sleepPlan } from '../../src/preflight/sleep-rule.js';

describe('sleepPlan', () => {
  it('uses caffeinate on macOS and systemd-inhibit on Linux, both watching our pid', () => {
    expect(sleepPlan('darwin', 42)).toEqual({
      kind: 'holder',
      tool: 'caffeinate',
      command: 'caffeinate',
      args: ['-i', '-s', '-w', '42'],
    });
    const linux = sleepPlan('linux', 42);
    expect(linux.kind === 'holder' && linux.args.slice(0, 2)).toEqual([
      '--what=idle:sleep',
      '--who=skilltrigger',
    ]);
    expect(linux.kind === 'holder' && linux.args.at(-1)).toBe('42');
    expect(sleepPlan('win32', 42)).toEqual({ kind: 'none', platform: 'win32' });
  });
});
