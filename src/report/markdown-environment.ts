/** The report's Markdown "Environment" section (pure): tool, CLI, model, roster, settings, description hashes. */

import { escapeInline } from '../escape.js';
import type { Report } from '../schemas/report.js';
import { counted, settingsText } from './headline.js';
import { listingLines } from './listing-text.js';
import { memoryText } from './memory-text.js';
import { labelled, type Side } from './sides.js';

function descriptionLine(side: Side): string {
  const d = side.m.description;
  const source = d.overridden ? 'from --description' : 'from SKILL.md';
  const name = side.label ? `Description (${side.label.toLowerCase()})` : 'Description';
  const listed =
    d.listed !== undefined && d.listed.sha256 !== d.sha256
      ? `; listed text (what Claude Code lists, and what was measured) ${counted(d.listed.bytes, 'byte')}, SHA-256 \`${d.listed.sha256.slice(0, 12)}\``
      : '';
  return `- ${name}: ${counted(d.bytes, 'byte')}, SHA-256 \`${d.sha256.slice(0, 12)}\` (first 12 hex), ${source}${listed}`;
}

export function environmentSection(report: Report, sides: readonly Side[]): string[] {
  const cli = report.cli.version === null ? 'unknown' : escapeInline(report.cli.version);
  const requested =
    report.model.requested === null ? 'the CLI default' : escapeInline(report.model.requested);
  const reportedEntries = Object.entries(report.model.reported).sort(([a], [b]) =>
    a < b ? -1 : a > b ? 1 : 0,
  );
  const reported =
    reportedEntries.length === 0
      ? 'none'
      : reportedEntries.map(([model, n]) => `${escapeInline(model)} (${counted(n, 'run')})`).join(', ');
  const roster = report.roster
    ? `${counted(report.roster.slashCommands, 'slash command')}, ${counted(report.roster.skills, 'skill')} ` +
      `(${report.roster.members.length} distinct names, stored hashed; the stub not counted)`
    : 'not recorded';
  const env = report.environment
    ? `${counted(report.environment.memoryFiles.project, 'project memory file')}, ` +
      `${counted(report.environment.memoryFiles.user, 'user memory file')}, ` +
      `${counted(report.environment.hooks, 'hook')}, ${counted(report.environment.mcpServers, 'MCP server')}`
    : 'not recorded';
  const s = report.settings;
  const memory = memoryText(report);
  const settings = settingsText(s, 'auto: a query stops once its verdict is settled');
  const conflict = report.conflictAllowed
    ? 'measured despite a conflicting plugin (--allow-conflict)'
    : 'none allowed (the conflict gate was enforced)';
  return [
    '## Environment',
    '',
    `- Tool: skilltrigger ${escapeInline(report.tool.version)} · Claude Code CLI ${cli}`,
    `- Model: requested ${requested} · reported ${reported}`,
    `- Roster: ${roster}`,
    `- Inherited environment: ${env}`,
    ...(memory === undefined ? [] : [`- Memory installed: ${memory}`]),
    `- Settings: ${settings}`,
    ...sides.map(descriptionLine),
    ...sides.flatMap((side) => listingLines(side.m).map((l) => `- Listing: ${labelled(side, l)}`)),
    `- Plugin conflicts: ${conflict}`,
    `- Created: ${escapeInline(report.createdAt)}`,
  ];
}
