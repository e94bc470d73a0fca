import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * No module of src/ imports itself through others (type-only imports included): a cycle is how
 * verdict/rules.ts and verdict/sequential.ts grew into one module in two files.
 */
const SRC = resolve(import.meta.dirname, '../../src');
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
