import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * No module of src/ imports itself through others (type-only imports included): a cycle is how
 * verdict/rules.ts and verdict/sequential.ts grew into one module in two files.
 */
const SRC = resolve(import.meta.dirname, '../../src');
/** The folder knots not yet untied: none is left, so any knot fails the test. */
const KNOTS: string[] = [];
const IMPORT = /^(?:import|export)\s[^;]*?\sfrom\s+'(\.[^']+)'/gms;

function importGraph(): Map<string, string[]> {
  const files = readdirSync(SRC, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => join(SRC, f));
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const deps = [...readFileSync(file, 'utf8').matchAll(IMPORT)].map((m) =>
      resolve(dirname(file), (m[1] ?? '').replace(/\.js$/, '.ts')),
    );
    graph.set(file, deps);
  }
  return graph;
}

/** One cycle per back edge of a depth-first walk: none exactly when the graph is acyclic. */
function cycles(graph: Map<string, string[]>): string[] {
  const found: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string) => {
    state.set(node, 'open');
    stack.push(node);
    for (const dep of graph.get(node) ?? []) {
      if (!graph.has(dep)) continue;
      if (state.get(dep) === 'open') {
        found.push(
          stack
            .slice(stack.indexOf(dep))
            .concat(dep)
            .map((f) => relative(SRC, f))
            .join(' → '),
        );
      } else if (state.get(dep) === undefined) visit(dep);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of graph.keys()) if (state.get(node) === undefined) visit(node);
  return found;
}

describe('src/ import graph', () => {
  it('sees the imports it walks (the verdict rules import the pass rule)', () => {
    const graph = importGraph();
    expect(graph.get(join(SRC, 'verdict/rules.ts'))).toContain(join(SRC, 'verdict/threshold.ts'));
    const [a, b] = [join(SRC, 'a.ts'), join(SRC, 'b.ts')];
    expect(
      cycles(
        new Map([
          [a, [b]],
          [b, [a]],
        ]),
      ),
    ).toEqual(['a.ts → b.ts → a.ts']);
  });

  it('has no import cycle', () => {
    expect(cycles(importGraph())).toEqual([]);
  });
});

/**
 * The folders of src/ are rooms (docs/architecture.md): no two rooms reach each other through
 * their imports. A room is a top-level folder (a domain), except under agents/, where each agent's
 * folder, the shared process/ and each file beside them (the spec, the registry) are rooms of their
 * own, so that no agent reaches another and the spec reaches none. Inside a
 * domain the floors below keep the layering. src/cli.ts belongs to cli/ and src/index.ts to
 * action/; the other root files (errors, format, guards, mask, outcome, version) are the ground floor.
 */
const AGENT_FACTS = /^agents\/[^/]+\/facts\.ts$/;

function room(file: string): string {
  const path = relative(SRC, file);
  if (path === 'cli.ts') return 'cli';
  if (path === 'index.ts') return 'action';
  // Each agent's facts are the registry's entries, kept beside the agent they describe.
  if (AGENT_FACTS.test(path)) return 'agents/registry';
  const parts = path.split('/');
  if (parts.length === 1) return '.';
  if (parts[0] === 'agents') return `agents/${(parts[1] ?? '').replace(/\.ts$/, '')}`;
  return parts[0] ?? '.';
}

/** The entry a module belongs to, by its top-level folder: `cli`, `action`, or none. */
function entryOf(file: string): string | undefined {
  const top = room(file).split('/')[0] ?? '';
  return top === 'cli' || top === 'action' ? top : undefined;
}

function folderGraph(graph: Map<string, string[]>): Map<string, Set<string>> {
  const folders = new Map<string, Set<string>>();
  for (const [file, deps] of graph) {
    const from = room(file);
    const out = folders.get(from) ?? new Set<string>();
    folders.set(from, out);
    for (const dep of deps) if (graph.has(dep) && room(dep) !== from) out.add(room(dep));
  }
  return folders;
}

/** The strongly connected components of more than one folder (Tarjan), each sorted, as text. */
function knots(folders: Map<string, Set<string>>): string[] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node) ?? 0);
    stack.push(node);
    for (const dep of folders.get(node) ?? []) {
      if (!index.has(dep)) {
        visit(dep);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(dep) ?? 0));
      } else if (stack.includes(dep)) low.set(node, Math.min(low.get(node) ?? 0, index.get(dep) ?? 0));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    for (let top = stack.pop(); top !== undefined; top = top === node ? undefined : stack.pop())
      component.push(top);
    if (component.length > 1) found.push(component.sort().join(' ⇄ '));
  };
  for (const node of folders.keys()) if (!index.has(node)) visit(node);
  return found.sort();
}

/** Every module of one entry that reaches a module of the other entry, through any chain of imports. */
function crossings(graph: Map<string, string[]>, from: string, to: string): string[] {
  const found: string[] = [];
  for (const start of graph.keys()) {
    if (entryOf(start) !== from) continue;
    const seen = new Set<string>([start]);
    const queue = [start];
    while (queue.length > 0) {
      const file = queue.shift() as string;
      for (const dep of graph.get(file) ?? []) {
        if (seen.has(dep) || !graph.has(dep)) continue;
        seen.add(dep);
        if (entryOf(dep) === to) found.push(`${relative(SRC, start)} → ${relative(SRC, dep)}`);
        else queue.push(dep);
      }
    }
  }
  return found.sort();
}

describe('src/ folder graph', () => {
  it('sees a knot of two folders and a knot of three, and leaves a chain alone', () => {
    const graph = new Map([
      [join(SRC, 'a/x.ts'), [join(SRC, 'b/y.ts')]],
      [join(SRC, 'b/y.ts'), [join(SRC, 'a/z.ts'), join(SRC, 'errors.ts')]],
      [join(SRC, 'a/z.ts'), []],
      [join(SRC, 'c/x.ts'), [join(SRC, 'd/x.ts')]],
      [join(SRC, 'd/x.ts'), [join(SRC, 'e/x.ts')]],
      [join(SRC, 'e/x.ts'), [join(SRC, 'c/w.ts')]],
      [join(SRC, 'c/w.ts'), [join(SRC, 'errors.ts')]],
      [join(SRC, 'errors.ts'), []],
    ]);
    expect(knots(folderGraph(graph))).toEqual(['a ⇄ b', 'c ⇄ d ⇄ e']);
    expect(knots(folderGraph(new Map([[join(SRC, 'a/x.ts'), [join(SRC, 'errors.ts')]]])))).toEqual([]);
  });

  it('has no folder knot', () => {
    expect(knots(folderGraph(importGraph()))).toEqual(KNOTS);
  });

  it('sees an entry reach the other entry through a folder between them', () => {
    const graph = new Map([
      [join(SRC, 'cli.ts'), [join(SRC, 'matrix/plan.ts')]],
      [join(SRC, 'matrix/plan.ts'), [join(SRC, 'action/shard.ts')]],
      [join(SRC, 'action/shard.ts'), []],
    ]);
    expect(crossings(graph, 'cli', 'action')).toEqual(['cli.ts → action/shard.ts']);
    expect(crossings(graph, 'action', 'cli')).toEqual([]);
  });

  it('keeps the two entries apart: neither the CLI nor the Action imports the other, even through others', () => {
    const graph = importGraph();
    expect(crossings(graph, 'cli', 'action')).toEqual([]);
    expect(crossings(graph, 'action', 'cli')).toEqual([]);
  });
});

/**
 * A module's floor (docs/architecture.md, "The floors"), by the longest path prefix that names it:
 * a domain folder holds its rules, renderers and writers side by side, and each keeps its floor. A
 * module no prefix names has no floor yet, and fails below.
 */
type Floor = 'leaf' | 'rule' | 'adapter' | 'flow' | 'renderer' | 'writer' | 'entry';

const FLOORS: Record<string, Floor> = {
  '': 'leaf',
  'cli.ts': 'entry',
  'index.ts': 'entry',
  'schemas/': 'leaf',
  'agents/': 'adapter',
  'agents/agent.ts': 'leaf',
  'agents/listed.ts': 'leaf',
  'agents/ids.ts': 'leaf',
  'agents/transcript.ts': 'leaf',
  'agents/listing.ts': 'leaf',
  'agents/runs.ts': 'leaf',
  'agents/gates.ts': 'leaf',
  'agents/facts.ts': 'leaf',
  'agents/api-error.ts': 'rule',
  'agents/registry.ts': 'leaf',
  'agents/prices.ts': 'rule',
  'agents/claude/prices.ts': 'rule',
  'agents/codex/prices.ts': 'rule',
  'agents/gemini/prices.ts': 'rule',
  'agents/runtime.ts': 'flow',
  'agents/codex/runtime.ts': 'flow',
  'agents/claude/runtime.ts': 'flow',
  'agents/process/json-line.ts': 'rule',
  'agents/process/standby-pool.ts': 'rule',
  'agents/process/early-start.ts': 'rule',
  'agents/process/gate-book.ts': 'rule',
  'agents/claude/decision.ts': 'rule',
  'agents/claude/events.ts': 'rule',
  'agents/claude/late.ts': 'rule',
  'agents/claude/display-width.ts': 'rule',
  'agents/claude/listing-budget.ts': 'rule',
  'agents/claude/one-turn.ts': 'rule',
  'agents/claude/gates/': 'rule',
  'agents/claude/gates/conflict-gate.ts': 'flow',
  'agents/claude/gates/round-trips.ts': 'flow',
  'agents/claude/agent.ts': 'flow',
  'agents/claude/early-standby.ts': 'flow',
  'agents/claude/listed-text.ts': 'flow',
  'agents/claude/matrix.ts': 'flow',
  'agents/claude/prefetch.ts': 'flow',
  'agents/claude/preflight.ts': 'flow',
  'agents/claude/run-once.ts': 'flow',
  'agents/claude/run-watch.ts': 'flow',
  'agents/claude/standby.ts': 'flow',
  'agents/claude/waiting-run.ts': 'flow',
  'agents/codex/command.ts': 'rule',
  'agents/codex/decision.ts': 'rule',
  'agents/codex/events.ts': 'rule',
  'agents/codex/gate-rules.ts': 'rule',
  'agents/codex/listing-budget.ts': 'rule',
  'agents/codex/rollout.ts': 'rule',
  'agents/codex/gates.ts': 'flow',
  'agents/codex/listed.ts': 'flow',
  'system/': 'adapter',
  'simulated/': 'adapter',
  'inputs/': 'rule',
  'inputs/files.ts': 'adapter',
  'inputs/context-file.ts': 'adapter',
  'inputs/memory-file.ts': 'adapter',
  'inputs/roster.ts': 'adapter',
  'inputs/sibling-files.ts': 'adapter',
  'author/': 'rule',
  'author/files.ts': 'adapter',
  'cost/': 'rule',
  'cost/prices-file.ts': 'adapter',
  'verdict/': 'rule',
  'compare/': 'rule',
  'compare/render': 'renderer',
  'matrix/': 'rule',
  'matrix/entrants.ts': 'adapter',
  'matrix/agent.ts': 'flow',
  'matrix/measure.ts': 'flow',
  'matrix/markdown.ts': 'renderer',
  'matrix/files.ts': 'writer',
  'improve/': 'rule',
  'improve/session.ts': 'flow',
  'improve/session-loop.ts': 'flow',
  'improve/proposal.ts': 'flow',
  'improve/markdown.ts': 'renderer',
  'measure/': 'flow',
  'preflight/': 'flow',
  'preflight/sleep-rule.ts': 'rule',
  'preflight/render.ts': 'renderer',
  'report/': 'renderer',
  'report/build/': 'rule',
  'report/read/': 'rule',
  'report/disk/': 'adapter',
  'report/files.ts': 'writer',
  'action/': 'entry',
  'action/picomatch.d.ts': 'leaf',
  'action/results/': 'rule',
  'action/text/': 'renderer',
  'cli/': 'entry',
};
/** The prefixes longest first, so the most specific one names a module's floor. */
const PREFIXES = Object.keys(FLOORS).sort((a, b) => b.length - a.length);

function floor(file: string): Floor | undefined {
  const path = relative(SRC, file);
  if (AGENT_FACTS.test(path)) return 'leaf';
  const prefix = PREFIXES.find((p) => (p === '' ? !path.includes('/') : path.startsWith(p)));
  return prefix === undefined ? undefined : FLOORS[prefix];
}

/** The table "Which folder may import which", a floor per row; everything may import the leaves. */
const MAY_IMPORT: Record<Floor, readonly Floor[]> = {
  leaf: ['leaf'],
  rule: ['leaf', 'rule'],
  adapter: ['leaf', 'rule', 'adapter'],
  flow: ['leaf', 'rule', 'adapter', 'flow'],
  renderer: ['leaf', 'rule', 'renderer'],
  writer: ['leaf', 'rule', 'adapter', 'renderer', 'writer'],
  entry: ['leaf', 'rule', 'adapter', 'flow', 'renderer', 'writer', 'entry'],
};

/** Every import of a module from a floor its row does not allow (modules outside the graph aside). */
function upward(graph: Map<string, string[]>): string[] {
  const found: string[] = [];
  for (const [file, deps] of graph) {
    const from = floor(file);
    for (const dep of deps) {
      const to = floor(dep);
      if (!graph.has(dep) || from === undefined || to === undefined) continue;
      if (!MAY_IMPORT[from].includes(to))
        found.push(`${relative(SRC, file)} → ${relative(SRC, dep)} (${from} → ${to})`);
    }
  }
  return found.sort();
}

/** The modules of Node and npm that reach the disk, a process or the network. */
const IO_MODULE =
  /^(?:import|export)\s[^;]*?\sfrom\s+'(node:(?:fs|fs\/promises|child_process|net|http|https|dgram|worker_threads)|execa)'/gms;
/** The leaf that still reads a file (docs/architecture.md, "Where the floors are not yet clean"). */
const LEAVES_WITH_IO = ['version.ts'];

/** The I/O modules a leaf, a rule or a renderer imports, as `path → module` (the exceptions above aside). */
function ioOutsideAdapters(sources: Map<string, string>): string[] {
  const found: string[] = [];
  for (const [file, text] of sources) {
    const at = floor(file);
    if (at === undefined || !['leaf', 'rule', 'renderer'].includes(at)) continue;
    if (LEAVES_WITH_IO.includes(relative(SRC, file))) continue;
    for (const m of text.matchAll(IO_MODULE)) found.push(`${relative(SRC, file)} → ${m[1]}`);
  }
  return found.sort();
}

describe('src/ floors', () => {
  it('places the renderers and writers of rule folders on their own floor', () => {
    expect(floor(join(SRC, 'matrix/plan.ts'))).toBe('rule');
    expect(floor(join(SRC, 'matrix/markdown.ts'))).toBe('renderer');
    expect(floor(join(SRC, 'matrix/files.ts'))).toBe('writer');
    expect(floor(join(SRC, 'compare/render-models.ts'))).toBe('renderer');
    expect(floor(join(SRC, 'improve/session.ts'))).toBe('flow');
    expect(floor(join(SRC, 'preflight/render.ts'))).toBe('renderer');
    expect(floor(join(SRC, 'preflight/preflight.ts'))).toBe('flow');
    expect(floor(join(SRC, 'agents/agent.ts'))).toBe('leaf');
    expect(floor(join(SRC, 'action/results/results.ts'))).toBe('rule');
    expect(floor(join(SRC, 'action/text/comment.ts'))).toBe('renderer');
    expect(floor(join(SRC, 'cli.ts'))).toBe('entry');
    expect(floor(join(SRC, 'errors.ts'))).toBe('leaf');
    expect(floor(join(SRC, 'new-folder/x.ts'))).toBeUndefined();
  });

  it('sees a rule import an adapter, a flow, a renderer or an entry, and leaves a downward import alone', () => {
    const rule = join(SRC, 'matrix/plan.ts');
    const adapter = join(SRC, 'system/git.ts');
    const flow = join(SRC, 'measure/loop.ts');
    const renderer = join(SRC, 'report/junit.ts');
    const entry = join(SRC, 'cli.ts');
    const graph = new Map([
      [rule, [adapter, flow, renderer, entry, join(SRC, 'verdict/rules.ts'), join(SRC, 'errors.ts')]],
      [adapter, [join(SRC, 'agents/claude/decision.ts')]],
      [flow, [adapter]],
      [renderer, []],
      [entry, [flow, renderer]],
      [join(SRC, 'verdict/rules.ts'), []],
      [join(SRC, 'agents/claude/decision.ts'), []],
      [join(SRC, 'errors.ts'), []],
    ]);
    expect(upward(graph)).toEqual([
      'matrix/plan.ts → cli.ts (rule → entry)',
      'matrix/plan.ts → measure/loop.ts (rule → flow)',
      'matrix/plan.ts → report/junit.ts (rule → renderer)',
      'matrix/plan.ts → system/git.ts (rule → adapter)',
    ]);
  });

  it('gives every module of src/ a floor', () => {
    const unplaced = [...importGraph().keys()].filter((file) => floor(file) === undefined);
    expect(unplaced.map((file) => relative(SRC, file))).toEqual([]);
  });

  it('sees a rule that reads the disk or starts a process, and leaves an adapter and node:path alone', () => {
    const sources = new Map([
      [
        join(SRC, 'inputs/skill.ts'),
        "import { readFile } from 'node:fs/promises';\nimport path from 'node:path';",
      ],
      [join(SRC, 'matrix/plan.ts'), "import type { Stats } from 'node:fs';\nimport { execa } from 'execa';"],
      [join(SRC, 'system/git.ts'), "import { execa } from 'execa';"],
      [join(SRC, 'report/junit.ts'), "import { writeFile } from 'node:fs/promises';"],
      [join(SRC, 'version.ts'), "import { readFileSync } from 'node:fs';"],
    ]);
    expect(ioOutsideAdapters(sources)).toEqual([
      'inputs/skill.ts → node:fs/promises',
      'matrix/plan.ts → execa',
      'matrix/plan.ts → node:fs',
      'report/junit.ts → node:fs/promises',
    ]);
  });

  it('keeps I/O out of the leaves, the rules and the renderers: they neither read files nor start processes', () => {
    const sources = new Map(
      [...importGraph().keys()].map((file) => [file, readFileSync(file, 'utf8')] as const),
    );
    expect(ioOutsideAdapters(sources)).toEqual([]);
  });

  it('has every module import only from the floors its row of the table allows', () => {
    // None is left: a piece that seems to need an upward import moves down, or is passed in
    // (docs/architecture.md, "How the last knot was untied").
    expect(upward(importGraph())).toEqual([]);
  });
});

/**
 * An agent's folder (agents/<id>/) is imported from outside only by the registry (agents/registry.ts
 * for what an agent is, agents/runtime.ts for what it runs), so the core never names an agent
 * (docs/architecture.md, "A new agent"). No other module reaches into one.
 */
const REGISTRY = ['agents/registry.ts', 'agents/runtime.ts', 'agents/prices.ts'];

/** The modules outside an agent's folder that import from it, the registry aside. */
function agentFolderImporters(graph: Map<string, string[]>): string[] {
  const agentOf = (file: string): string | undefined =>
    /^agents\/(?!process\/)([^/]+)\//.exec(relative(SRC, file))?.[1];
  const found = new Set<string>();
  for (const [file, deps] of graph) {
    const path = relative(SRC, file);
    if (REGISTRY.includes(path)) continue;
    for (const dep of deps) {
      const agent = agentOf(dep);
      if (agent !== undefined && agentOf(file) !== agent) found.add(path);
    }
  }
  return [...found].sort();
}

describe('the agent registry', () => {
  it('sees a module outside an agent reach into its folder, and leaves the registry and the agent itself alone', () => {
    const graph = new Map([
      [join(SRC, 'measure/loop.ts'), [join(SRC, 'agents/claude/agent.ts'), join(SRC, 'agents/agent.ts')]],
      [join(SRC, 'agents/runtime.ts'), [join(SRC, 'agents/codex/agent.ts')]],
      [
        join(SRC, 'agents/codex/agent.ts'),
        [join(SRC, 'agents/codex/run.ts'), join(SRC, 'agents/process/lines.ts')],
      ],
      [join(SRC, 'agents/codex/run.ts'), [join(SRC, 'agents/claude/x.ts')]],
    ]);
    expect(agentFolderImporters(graph)).toEqual(['agents/codex/run.ts', 'measure/loop.ts']);
  });

  it("is the only way into an agent's folder", () => {
    expect(agentFolderImporters(importGraph())).toEqual([]);
  });
});
