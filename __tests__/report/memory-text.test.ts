import { describe, expect, it } from 'vitest';
import { renderReportHtml } from '../../src/report/html/render.js';
import { environmentSection } from '../../src/report/markdown-environment.js';
import { memoryText } from '../../src/report/memory-text.js';
import { sidesOf } from '../../src/report/sides.js';
import type { Report } from '../../src/schemas/report.js';
import { buildMeasurement, buildReport } from '../fakes/measurement-builder.js';

/** The Markdown and HTML reports say that memory was installed: counts, sizes and hashes, never text. */
const base = buildReport(buildMeasurement([{ query: 'p1', shouldTrigger: true, hits: 2, runs: 2 }]));
const withMemory: Report = {
  ...base,
  agents: [
    { name: 'claude', version: '2.1.328' },
    { name: 'codex', version: '0.169.0' },
  ],
  settings: {
    ...base.settings,
    memory: [
      { sha256: 'a'.repeat(64), bytes: 1200 },
      { sha256: 'b'.repeat(64), bytes: 40 },
    ],
  },
};
const SAID =
  "2 files joined in order (1,240 bytes; SHA-256 aaaaaaaaaaaa, bbbbbbbbbbbb) in every run's project, as CLAUDE.md (Claude Code), AGENTS.md (Codex)";

describe('memoryText', () => {
  it("names the files by count, size and hash, and the file each agent's runs read", () => {
    expect(memoryText(withMemory)).toBe(SAID);
    expect(memoryText(base)).toBeUndefined();
  });

  it("with the Action's files for their agents, names only the agents that held one", () => {
    const auto: Report = {
      ...withMemory,
      settings: { ...withMemory.settings, memory: [{ sha256: 'c'.repeat(64), bytes: 9, agents: ['codex'] }] },
    };
    expect(memoryText(auto)).toBe(
      "1 file (9 bytes; SHA-256 cccccccccccc) in every run's project, as AGENTS.md (Codex)",
    );
  });

  it('is a line of the Markdown environment only when memory was installed', () => {
    expect(environmentSection(withMemory, sidesOf(withMemory))).toContain(`- Memory installed: ${SAID}`);
    expect(environmentSection(base, sidesOf(base)).join('\n')).not.toContain('Memory installed');
  });

  it('is a fact of the HTML report', () => {
    const html = renderReportHtml(withMemory, '0.1.0');
    expect(html).toContain('Memory installed');
    expect(html).toContain('1,240 bytes; SHA-256 aaaaaaaaaaaa, bbbbbbbbbbbb');
  });
});
