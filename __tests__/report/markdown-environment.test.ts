import { describe, expect, it } from 'vitest';
import { environmentSection } from '../../src/report/markdown-environment.js';
import { sidesOf } from '../../src/report/sides.js';
import type { Report } from '../../src/schemas/report.js';
import { buildMeasurement, buildReport, SHA_A, SHA_B } from '../fakes/measurement-builder.js';

const m = (sha256 = SHA_A) =>
  buildMeasurement([{ query: 'p1', shouldTrigger: true, hits: 2, runs: 2 }], { sha256, bytes: 1 });
const section = (report: Report) => environmentSection(report, sidesOf(report));
const line = (lines: string[], start: string) => lines.find((l) => l.startsWith(start));

describe('environmentSection', () => {
  it('names the tool, CLI, models (sorted, counted), roster, environment, settings and the description', () => {
    const report = buildReport(m(), {
      model: { requested: 'claude-test', reported: { zeta: 1, alpha: 3 } },
    });
    const lines = section(report);
    expect(lines.slice(0, 2)).toEqual(['## Environment', '']);
    expect(lines).toContain('- Tool: skilltrigger 0.1.0 · Claude Code CLI 2.1.328');
    expect(lines).toContain('- Model: requested claude-test · reported alpha (3 runs), zeta (1 run)');
    expect(lines).toContain(
      '- Roster: 4 slash commands, 6 skills (10 distinct names, stored hashed; the stub not counted)',
    );
    expect(lines).toContain(
      '- Inherited environment: 0 project memory files, 1 user memory file, 0 hooks, 0 MCP servers',
    );
    expect(line(lines, '- Settings: ')).toBe(
      '- Settings: 2 runs per query · timeout 30 s · trigger threshold 0.5 · no verdict above 10% lost runs · stub as a command · 2 API retries',
    );
    expect(lines).toContain(
      `- Description: 1 byte, SHA-256 \`${SHA_A.slice(0, 12)}\` (first 12 hex), from SKILL.md`,
    );
    expect(lines).toContain('- Plugin conflicts: none allowed (the conflict gate was enforced)');
    expect(lines.at(-1)).toBe('- Created: 2026-09-18T10:00:00.000Z');
  });

  it('says what was not recorded, the CLI default, and an allowed conflict', () => {
    const lines = section(
      buildReport(m(), {
        cli: { version: null },
        model: { requested: null, reported: {} },
        roster: null,
        environment: null,
        conflictAllowed: true,
      }),
    );
    expect(lines).toContain('- Tool: skilltrigger 0.1.0 · Claude Code CLI unknown');
    expect(lines).toContain('- Model: requested the CLI default · reported none');
    expect(lines).toContain('- Roster: not recorded');
    expect(lines).toContain('- Inherited environment: not recorded');
    expect(lines).toContain('- Plugin conflicts: measured despite a conflicting plugin (--allow-conflict)');
  });

  it('a paired report has a description line per side; a listed text that differs is given too', () => {
    const candidate = m(SHA_B);
    candidate.description = {
      ...candidate.description,
      overridden: true,
      listed: { bytes: 250, sha256: 'c'.repeat(64), source: 'probe' },
    };
    const lines = section(buildReport(candidate, { baseline: m() }));
    expect(line(lines, '- Description (baseline): ')).toContain('from SKILL.md');
    const cand = line(lines, '- Description (candidate): ');
    expect(cand).toContain(`SHA-256 \`${SHA_B.slice(0, 12)}\``);
    expect(cand).toContain(
      'from --description; listed text (what Claude Code lists, and what was measured) 250 bytes',
    );
  });

  it('escapes user-reachable text (a model name) as inline Markdown', () => {
    const lines = section(buildReport(m(), { model: { requested: '*bold*', reported: {} } }));
    expect(lines).toContain('- Model: requested \\*bold\\* · reported none');
  });
});
