import type { AgentId } from '../agents/ids.js';
import { agentFacts } from '../agents/registry.js';
import type { Report } from '../schemas/report.js';
import { type ComparisonWarning, type ComparisonWarningCode, DEFAULT_NAMES } from './comparison.js';
import { contextWarnings } from './contexts.js';
import { memoryWarnings } from './memory.js';
import { siblingSetWarnings } from './siblings.js';

type Names = { base: string; cand: string };

/** An agent's CLI version in a report (`cli.version` for the first, as `read` keeps them equal). */
function versionOf(r: Report, agent: AgentId): string {
  const version =
    r.agents[0]?.name === agent ? r.cli.version : r.agents.find((x) => x.name === agent)?.version;
  return version ?? 'unknown';
}

/** Every difference between two reports' environments (docs/design.md, "Comparing"), in a fixed order. */
export function environmentWarnings(a: Report, b: Report, names: Names = DEFAULT_NAMES): ComparisonWarning[] {
  return [
    ...identityWarnings(a, b, names),
    ...rosterWarnings(a, b, names),
    ...siblingSetWarnings(a, b, names),
    ...crowdWarnings(a, b, names),
    ...memoryWarnings(a, b, names),
    ...inheritedWarnings(a, b, names),
    ...settingsWarnings(a, b, names),
    ...contextWarnings(a, b, names),
  ];
}

function both(names: Names, x: string, y: string): string {
  return `${names.base} ${x}, ${names.cand} ${y}`;
}

/** A warning when the two sides of one field differ, else none. */
function differs(
  names: Names,
  code: ComparisonWarningCode,
  what: string,
  x: unknown,
  y: unknown,
): ComparisonWarning[] {
  return x === y ? [] : [{ code, message: `${what} differs: ${both(names, show(x), show(y))}` }];
}

/** What was measured and with what: the skill, skilltrigger, the models, the agents and their versions. */
function identityWarnings(a: Report, b: Report, names: Names): ComparisonWarning[] {
  const out = [
    ...differs(names, 'skill', 'skill', a.skill, b.skill),
    ...differs(names, 'tool-version', 'skilltrigger version', a.tool.version, b.tool.version),
    ...differs(
      names,
      'model-requested',
      'model requested',
      a.model.requested ?? 'default',
      b.model.requested ?? 'default',
    ),
  ];
  const agentsOf = (r: Report) => r.agents.map((x) => x.name).join(', ');
  if (agentsOf(a) !== agentsOf(b)) {
    out.push({
      code: 'agents',
      message: `agents differ: ${both(names, agentsOf(a), agentsOf(b))}; a rate measured on one agent says nothing about another, so only an agent both measured is compared with itself`,
    });
  }
  const modelsA = Object.keys(a.model.reported).sort();
  const modelsB = Object.keys(b.model.reported).sort();
  if (modelsA.join('\n') !== modelsB.join('\n')) {
    out.push({
      code: 'models-reported',
      message: `models the runs reported differ: ${both(names, showCounts(a.model.reported), showCounts(b.model.reported))}`,
    });
  }
  // Each agent both measured, against its own version: Claude's 2.1.328 and Codex's 0.169.0 are
  // two programs, not a version change (that the agents differ is said above).
  for (const agent of a.agents) {
    if (!b.agents.some((x) => x.name === agent.name)) continue;
    const what = `${agentFacts(agent.name).cliLabel} version`;
    out.push(...differs(names, 'cli-version', what, versionOf(a, agent.name), versionOf(b, agent.name)));
  }
  return out;
}

/** The skills and commands the model saw: unknown on a side, or their members or sizes changed. */
function rosterWarnings(a: Report, b: Report, names: Names): ComparisonWarning[] {
  if (a.roster === null || b.roster === null) {
    const missing = [a.roster === null ? names.base : null, b.roster === null ? names.cand : null].filter(
      (n) => n !== null,
    );
    return [
      {
        code: 'roster-unknown',
        message: `no roster recorded by ${missing.join(' and ')}: a change in the skills and commands the model sees cannot be ruled out`,
      },
    ];
  }
  const out: ComparisonWarning[] = [];
  const before = new Set(a.roster.members);
  const after = new Set(b.roster.members);
  const added = [...after].filter((m) => !before.has(m)).length;
  const removed = [...before].filter((m) => !after.has(m)).length;
  if (added > 0 || removed > 0) {
    out.push({
      code: 'roster-members',
      message: `roster members differ (by hash): ${added} added, ${removed} removed from ${names.base} to ${names.cand}`,
    });
  }
  const sizes: string[] = [];
  if (a.roster.skills !== b.roster.skills) sizes.push(`skills ${a.roster.skills} → ${b.roster.skills}`);
  if (a.roster.slashCommands !== b.roster.slashCommands) {
    sizes.push(`slash commands ${a.roster.slashCommands} → ${b.roster.slashCommands}`);
  }
  if (sizes.length > 0)
    out.push({ code: 'roster-size', message: `roster size differs: ${sizes.join(', ')}` });
  return out;
}

/** The crowd the stub was listed among (`run --roster`). */
function crowdWarnings(a: Report, b: Report, names: Names): ComparisonWarning[] {
  const crowd = (r: Report) => r.settings.roster;
  const crowdOf = (r: Report) => {
    const c = crowd(r);
    return c
      ? `a roster of ${c.skills} skills and ${c.commands} commands (${c.sha256.slice(0, 12)})`
      : 'no roster';
  };
  if (crowd(a)?.sha256 === crowd(b)?.sha256) return [];
  return [
    {
      code: 'roster-crowd',
      message: `the crowd the stub was listed among differs (run --roster): ${both(names, crowdOf(a), crowdOf(b))}; the listing budget may list the description differently`,
    },
  ];
}

/** The counts of what the user's setup adds (memory files, hooks, MCP servers). */
function inheritedWarnings(a: Report, b: Report, names: Names): ComparisonWarning[] {
  if (a.environment === null || b.environment === null) {
    const missing = [
      a.environment === null ? names.base : null,
      b.environment === null ? names.cand : null,
    ].filter((n) => n !== null);
    return [
      {
        code: 'environment-unknown',
        message: `no inherited-environment counts recorded by ${missing.join(' and ')}`,
      },
    ];
  }
  const ea = a.environment;
  const eb = b.environment;
  const counts: [string, number, number][] = [
    ['project memory files', ea.memoryFiles.project, eb.memoryFiles.project],
    ['user memory files', ea.memoryFiles.user, eb.memoryFiles.user],
    ['hooks', ea.hooks, eb.hooks],
    ['MCP servers', ea.mcpServers, eb.mcpServers],
  ];
  const diffs = counts.filter(([, x, y]) => x !== y).map(([what, x, y]) => `${what} ${x} → ${y}`);
  if (diffs.length === 0) return [];
  return [{ code: 'environment', message: `inherited environment differs: ${diffs.join(', ')}` }];
}

/** The measurement's settings, the conflict check and the simulated flag. */
function settingsWarnings(a: Report, b: Report, names: Names): ComparisonWarning[] {
  const sa = a.settings;
  const sb = b.settings;
  const conflict = (r: Report) => (r.conflictAllowed ? 'allowed (--allow-conflict)' : 'enforced');
  return [
    ...differs(names, 'trigger-threshold', 'trigger threshold', sa.triggerThreshold, sb.triggerThreshold),
    ...differs(names, 'runs-per-query', 'runs per query', sa.runsPerQuery, sb.runsPerQuery),
    ...differs(names, 'runs-per-query', 'runs mode', sa.runsMode ?? 'fixed', sb.runsMode ?? 'fixed'),
    ...differs(names, 'timeout', 'per-run timeout (s)', sa.timeoutSeconds, sb.timeoutSeconds),
    ...differs(names, 'stub-layout', 'stub layout', sa.stub, sb.stub),
    ...differs(names, 'no-verdict-share', 'no-verdict share', sa.noVerdictShare, sb.noVerdictShare),
    ...differs(names, 'max-retries', 'API retries per run', sa.maxRetries, sb.maxRetries),
    ...differs(names, 'launch', 'launch (standby or cold)', sa.launch ?? 'cold', sb.launch ?? 'cold'),
    ...differs(names, 'conflict-allowed', 'conflict check', conflict(a), conflict(b)),
    ...differs(
      names,
      'simulated',
      'simulated flag',
      a.simulated ? 'simulated' : 'real',
      b.simulated ? 'simulated' : 'real',
    ),
  ];
}

function show(x: unknown): string {
  return typeof x === 'string' ? x : JSON.stringify(x);
}

function showCounts(record: Record<string, number>): string {
  const entries = Object.entries(record).sort(([x], [y]) => x.localeCompare(y));
  return entries.length === 0 ? 'none' : entries.map(([k, v]) => `${k} ×${v}`).join(', ');
}
