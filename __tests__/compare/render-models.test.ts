import { describe, expect, it } from 'vitest';
import {
  compareReportByModel,
  type ModelComparison,
  type ModelsComparison,
} from '../../src/compare/by-model.js';
import { comparisonJson, renderComparisonText, SIMULATED_LINE } from '../../src/compare/render.js';
import {
  MODELS_COMPARISON_SCHEMA_ID,
  MODELS_COMPARISON_SCHEMA_VERSION,
  modelsComparisonJson,
  modelsComparisonText,
} from '../../src/compare/render-models.js';
import type { EvalItem } from '../../src/inputs/types.js';
import { modelRun, modelsReport } from '../fakes/models-report.js';

const HAIKU = 'claude-haiku-4-5';
const SONNET = 'claude-sonnet-4-5';
const items: EvalItem[] = [
  { id: 'p1', query: 'write the handoff', shouldTrigger: true, extra: {} },
  { id: 'n1', query: 'rename a variable', shouldTrigger: false, extra: {} },
];

/** A real paired comparison of two models, built by the report builder and compared model by model. */
function twoModels(): ModelsComparison {
  const runs = (positive: 'triggered' | 'not-triggered') => [
    [
      modelRun(HAIKU, positive),
      modelRun(HAIKU, positive),
      modelRun(SONNET, 'triggered'),
      modelRun(SONNET, 'triggered'),
    ],
    [HAIKU, HAIKU, SONNET, SONNET].map((m) => modelRun(m, 'not-triggered')),
  ];
  const report = modelsReport({
    items,
    models: [HAIKU, SONNET],
    records: runs('triggered'),
    baseline: runs('not-triggered'),
    runsPerQuery: 2,
  });
  return compareReportByModel(report);
}

/** The model sections of `twoModels()`, each there or the test fails. */
function sections(c: ModelsComparison): [ModelComparison, ModelComparison] {
  const [haiku, sonnet] = c.models;
  if (!haiku || !sonnet) throw new Error('expected two model sections');
  return [haiku, sonnet];
}

const setWarning = {
  code: 'models-differ' as const,
  message:
    'the model sets differ (only in main: opus; only in PR: none): only the models both measured are compared',
};

describe('modelsComparisonText', () => {
  it('puts a section per model, each the one-model rendering under its heading, in order', () => {
    const c = twoModels();
    expect(c.models.map((m) => m.model)).toEqual([HAIKU, SONNET]);
    const [haiku, sonnet] = sections(c);
    expect(modelsComparisonText(c)).toBe(
      `Overall by model: ${HAIKU} ${haiku.comparison.label} · ${SONNET} ${sonnet.comparison.label}\n` +
        `\n== model ${HAIKU} ==\n${renderComparisonText(haiku.comparison)}` +
        `\n== model ${SONNET} ==\n${renderComparisonText(sonnet.comparison)}`,
    );
  });

  it('says the set warnings first, one line each', () => {
    const c = {
      ...twoModels(),
      warnings: [setWarning, { code: 'models-differ' as const, message: 'second' }],
    };
    const text = modelsComparisonText(c);
    expect(
      text.startsWith(
        `Overall by model: ${HAIKU} noise · ${SONNET} noise\nwarning: ${setWarning.message}\nwarning: second\n\n== model ${HAIKU} ==\n`,
      ),
    ).toBe(true);
  });

  it('passes `simulated` to every section', () => {
    const text = modelsComparisonText(twoModels(), { simulated: true });
    expect(text.split(SIMULATED_LINE)).toHaveLength(3);
    expect(modelsComparisonText(twoModels())).not.toContain(SIMULATED_LINE);
  });

  it('says nothing is compared when no model was measured by both sides', () => {
    expect(modelsComparisonText({ models: [], warnings: [setWarning] })).toBe(
      `warning: ${setWarning.message}\nno model was measured by both sides: nothing is compared\n`,
    );
    expect(modelsComparisonText({ models: [], warnings: [] })).toBe(
      'no model was measured by both sides: nothing is compared\n',
    );
  });
});

describe('modelsComparisonJson', () => {
  it('wraps each model’s comparison JSON under its name, after the schema and the warnings', () => {
    const c = { ...twoModels(), warnings: [setWarning] };
    const json = modelsComparisonJson(c);
    const parsed = JSON.parse(json);
    expect(Object.keys(parsed)).toEqual(['schema', 'schemaVersion', 'warnings', 'models']);
    expect(parsed.schema).toBe('skilltrigger/comparison-by-model');
    expect(MODELS_COMPARISON_SCHEMA_ID).toBe('skilltrigger/comparison-by-model');
    expect(parsed.schemaVersion).toBe(MODELS_COMPARISON_SCHEMA_VERSION);
    expect(MODELS_COMPARISON_SCHEMA_VERSION).toBe(1);
    expect(parsed.warnings).toEqual([setWarning]);
    expect(Object.keys(parsed.models)).toEqual([HAIKU, SONNET]);
    for (const { model, comparison } of c.models) {
      expect(parsed.models[model]).toEqual(JSON.parse(comparisonJson(comparison)));
    }
    // Two-space indentation, no newline at the end (`compare --json` adds it).
    expect(json).toMatch(/^\{\n {2}"schema": /);
    expect(json.endsWith('}')).toBe(true);
  });

  it('passes `simulated` to every model’s comparison', () => {
    const c = twoModels();
    const parsed = JSON.parse(modelsComparisonJson(c, { simulated: true }));
    for (const { model, comparison } of c.models) {
      expect(parsed.models[model]).toEqual(JSON.parse(comparisonJson(comparison, { simulated: true })));
    }
    expect(parsed.models[HAIKU]).not.toEqual(JSON.parse(modelsComparisonJson(c)).models[HAIKU]);
  });

  it('gives an empty models object when no model was shared', () => {
    expect(JSON.parse(modelsComparisonJson({ models: [], warnings: [] }))).toEqual({
      schema: MODELS_COMPARISON_SCHEMA_ID,
      schemaVersion: 1,
      warnings: [],
      models: {},
    });
  });

  it('keeps a model name with quotes or a backslash intact as a key', () => {
    const [one] = sections(twoModels());
    const name = 'my "proxy"\\model\n';
    const parsed = JSON.parse(
      modelsComparisonJson({ models: [{ model: name, comparison: one.comparison }], warnings: [] }),
    );
    expect(Object.keys(parsed.models)).toEqual([name]);
  });

  it('keeps a model named `__proto__` as a key of its own', () => {
    const [one] = sections(twoModels());
    const parsed = JSON.parse(
      modelsComparisonJson({ models: [{ model: '__proto__', comparison: one.comparison }], warnings: [] }),
    );
    expect(Object.keys(parsed.models)).toEqual(['__proto__']);
  });
});
