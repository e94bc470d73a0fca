import { startSimulatedModel } from './lib/simulated/model.js';
import { runtimeOf } from './lib/agents/runtime.js';
import path from 'node:path';
const model = await startSimulatedModel({ chunkDelayMs: 0, script: (r) => r.query.startsWith('pos') ? { kind: 'skill' } : { kind: 'text' } });
const agent = runtimeOf(process.argv[2] ?? 'codex').open({ bin: path.resolve('node_modules/.bin', process.argv[2] ?? 'codex'), env: { ...process.env, OPENAI_BASE_URL: model.url + '/v1', OPENAI_API_KEY: 'k', GOOGLE_GEMINI_BASE_URL: model.url, GEMINI_API_KEY: 'k' }, stubs: { skillName: 'handoff', descriptions: ['Write handoff notes'], siblings: [] } });
for (const q of ['pos 1', 'neg 1', 'pos 2', 'neg 2']) {
  const t0 = Date.now(); const from = model.requests.length;
  const r = await agent.run({ query: q, side: 0, timeoutMs: 30000 });
  const t1 = Date.now();
  const reqs = model.requests.slice(from).map((x) => `${x.path.split('/').pop()}@${x.at - t0}-${(x.endedAt ?? 0) - t0}`);
  console.log(q, r.outcome.kind, 'total', t1 - t0, 'ms; requests', reqs.join(' '), 'durationMs', r.durationMs);
}
await model.close();
