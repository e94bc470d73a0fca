#!/usr/bin/env node
// `node scripts/listing-capture.js <layout.json> [model]`: lays out a skill catalogue (the shape of
// CatalogueLayout in src/agents/claude/catalogue-probe.ts, plus `fill` shorthands), starts the
// pinned `claude -p` once against the loopback simulated model, and prints every listing entry
// (whole or bare, its line length), the listing's total and what the rule of
// src/agents/claude/listing-budget.ts predicts. The figures of docs/listing-budget.md come from it.
// Run `npm run build` first: it imports lib/.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const { probeCatalogue } = await import(path.join(root, 'lib/agents/claude/catalogue-probe.js'));

/** `{ "fill": { "prefix": "a-fill", "count": 2, "chars": 900 } }` → that many skills of that description length. */
function expand(files) {
  return (files ?? []).flatMap((file) => {
    if (file.fill === undefined) return [file];
    const { prefix, count, chars, start = 1 } = file.fill;
    return Array.from({ length: count }, (_, i) => ({
      name: `${prefix}-${String(start + i).padStart(2, '0')}`,
      text: `---\ndescription: ${'x'.repeat(chars)}\n---\nbody\n`,
    }));
  });
}

const [file, model] = process.argv.slice(2);
if (file === undefined) {
  console.error('usage: node scripts/listing-capture.js <layout.json> [model]');
  process.exit(1);
}
const layout = JSON.parse(readFileSync(file, 'utf8'));
for (const key of ['userSkills', 'projectSkills', 'userCommands', 'projectCommands'])
  if (layout[key]) layout[key] = expand(layout[key]);
const result = await probeCatalogue(layout, {
  claudeBin: path.join(root, 'node_modules/.bin/claude'),
  env: process.env,
  model,
  debug: true,
});
if (result.kind !== 'listed') {
  console.error(result.reason);
  process.exit(3);
}
let total = 0;
for (const entry of result.entries) {
  total += entry.line.length;
  const state = entry.text === undefined ? 'bare ' : 'whole';
  console.log(`${state} ${String(entry.line.length).padStart(5)}  ${entry.name}`);
}
console.log(`${result.entries.length} entries, ${total + result.entries.length - 1} characters`);
if (result.overBudget) {
  const { skills, chars, budget } = result.overBudget;
  console.log(`the CLI's debug line: over budget, ${skills} skills, ${chars} chars > ${budget} budget`);
}
