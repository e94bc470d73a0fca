import { describe, expect, it } from 'vitest';
import type { ClaudeCommandResult } from '../../../../src/agents/claude/command.js';
import {
  combineRoundTrips,
  isPong,
  judgeRoundTrip,
  ROUND_TRIP_QUERY,
} from '../../../../src/agents/claude/gates/round-trip.js';
import { roundTripArgs } from '../../../../src/agents/claude/launch.js';
import { readRoundTrip } from '../../../../src/agents/claude/one-turn.js';
import { RUN_PERMISSION_ARGS } from '../../../../src/agents/claude/run-once.js';
import { gateResult } from '../../../../src/agents/gates.js';
import { GATE_QUERY } from '../../../../src/simulated/model.js';

const init = JSON.stringify({
  type: 'system',
  subtype: 'init',
  model: 'bogus-model-x',
  claude_code_version: '2.1.328',
  slash_commands: ['dataviz', 'stubplug:release-notes'],
  skills: ['dataviz'],
  mcp_servers: [{ name: 'm', status: 'failed' }],
  plugins: [
    { name: 'stubplug', path: '/m', source: 'stubplug@local-mkt', version: '0.1.0' },
    { name: 'broken' },
    'junk',
  ],
});
const text = (id: string, value: string) =>
  JSON.stringify({
    type: 'assistant',
    message: { id, model: 'claude-opus-5-5', content: [{ type: 'text', text: value }] },
    parent_tool_use_id: null,
  });
const synthetic = (value: string, extra: Record<string, unknown>) =>
  JSON.stringify({
    type: 'assistant',
    message: { id: 'x', model: '<synthetic>', content: [{ type: 'text', text: value }] },
    parent_tool_use_id: null,
    is_api_error_message: true,
    ...extra,
  });
const result = (value: string, isError: boolean, status: number | null = null) =>
  JSON.stringify({
    type: 'result',
    subtype: 'success',
    is_error: isError,
    api_error_status: status,
    result: value,
  });

const exited = (exitCode: number, extra: Partial<ClaudeCommandResult> = {}): ClaudeCommandResult => ({
  spawnFailed: false,
  timedOut: false,
  aborted: false,
  exitCode,
  stdout: '',
  stderr: '',
  ...extra,
});
const ctx = { cliVersion: '2.1.328', timeoutMs: 60_000, durationMs: 1234 };

describe('round-trip', () => {
  it('asks what the simulated model answers with pong, as a measured run would, minus partials', () => {
    expect(ROUND_TRIP_QUERY).toBe(GATE_QUERY);
    expect(roundTripArgs('sonnet')).toEqual([
      '-p',
      '--output-format',
      'stream-json',
      '--verbose',
      '--no-session-persistence',
      ...RUN_PERMISSION_ARGS,
      '--model',
      'sonnet',
      '--',
      ROUND_TRIP_QUERY,
    ]);
  });

  it('accepts pong with the usual decorations and nothing else', () => {
    for (const ok of ['pong', ' Pong.', '`pong`', '"pong"', '**pong**\n']) expect(isPong(ok)).toBe(true);
    for (const bad of ['ping', 'pong pong', 'Sure: pong', '']) expect(isPong(bad)).toBe(false);
  });

  it('reads the answer, the init event and its plugins', () => {
    const reading = readRoundTrip([init, text('m1', 'pong'), result('pong', false)].join('\n'));
    expect(reading.answer).toBe('pong');
    expect(reading.apiError).toBeUndefined();
    expect(reading.init).toEqual({
      model: 'bogus-model-x',
      cliVersion: '2.1.328',
      slashCommands: ['dataviz', 'stubplug:release-notes'],
      skills: ['dataviz'],
      mcpServers: 1,
    });
    expect(reading.initPlugins).toEqual([
      { name: 'stubplug', source: 'stubplug@local-mkt' },
      { name: 'broken' },
    ]);
    expect(judgeRoundTrip(reading, exited(0), ctx)).toEqual({
      gate: 'round-trip',
      status: 'ok',
      reason: 'bogus-model-x answered pong in 1.2 s',
    });
  });

  it('fails an unknown model (400) with a fix naming --model and the CLI version', () => {
    const stdout = [
      init,
      synthetic('API Error: 400 model: bogus-model-x', { error: 'unknown', api_error_status: 400 }),
      result('API Error: 400 model: bogus-model-x', true, 400),
    ].join('\n');
    const gate = judgeRoundTrip(readRoundTrip(stdout), exited(1, { stdout }), {
      ...ctx,
      model: 'bogus-model-x',
    });
    expect(gate.status).toBe('fail');
    expect(gate.reason).toBe(
      'the API does not know the model "bogus-model-x": API Error: 400 model: bogus-model-x',
    );
    expect(gate.fix).toMatch(/--model/);
    expect(gate.fix).toMatch(/claude 2\.1\.328/);
  });

  it('fails a refused or missing login with the login fix', () => {
    const stdout = [
      init,
      synthetic('Not logged in · Please run /login', { error: 'authentication_failed' }),
      result('Not logged in · Please run /login', true),
    ].join('\n');
    const gate = judgeRoundTrip(readRoundTrip(stdout), exited(1), ctx);
    expect(gate).toMatchObject({
      status: 'fail',
      reason: 'the login was refused: Not logged in · Please run /login',
    });
    expect(gate.fix).toMatch(/claude auth login/);
    const expired = readRoundTrip(result('Invalid API key · Fix external API key', true, 401));
    expect(judgeRoundTrip(expired, exited(1), ctx).fix).toMatch(/claude auth login/);
  });

  it('fails other answers, timeouts and silent exits, saying what happened', () => {
    expect(judgeRoundTrip(readRoundTrip(result('I cannot do that.', false)), exited(0), ctx).reason).toBe(
      'the default model answered "I cannot do that." instead of pong',
    );
    expect(
      judgeRoundTrip(readRoundTrip(init), exited(143, { timedOut: true, signal: 'SIGTERM' }), ctx).reason,
    ).toBe('no answer within 60 s from bogus-model-x');
    expect(judgeRoundTrip(readRoundTrip(''), exited(3, { stderr: 'Error: boom\nstack' }), ctx).reason).toBe(
      'claude exited with code 3 without an answer (it said: Error: boom)',
    );
    expect(
      judgeRoundTrip(
        readRoundTrip(result('API Error: Repeated 529 Overloaded errors.', true, 529)),
        exited(1),
        ctx,
      ),
    ).toMatchObject({ status: 'fail', reason: expect.stringMatching(/\(overloaded\)/) });
  });
});

describe('combineRoundTrips', () => {
  it('one model: its own result, unchanged', () => {
    const only = gateResult('round-trip', 'fail', 'haiku: refused', 'check the key');
    expect(combineRoundTrips([only])).toBe(only);
  });

  it('several that pass: one ok naming each reason', () => {
    const combined = combineRoundTrips([
      gateResult('round-trip', 'ok', 'haiku answered'),
      gateResult('round-trip', 'ok', 'sonnet answered'),
    ]);
    expect(combined).toEqual(gateResult('round-trip', 'ok', 'haiku answered; sonnet answered'));
  });

  it('any failure fails the gate, naming only the failed ones, each distinct fix once', () => {
    const combined = combineRoundTrips([
      gateResult('round-trip', 'ok', 'haiku answered'),
      gateResult('round-trip', 'fail', 'sonnet: 401', 'check the key'),
      gateResult('round-trip', 'fail', 'opus: 401', 'check the key'),
      gateResult('round-trip', 'fail', 'mini: no such model', 'name a model the API knows'),
      gateResult('round-trip', 'fail', 'nano: cut'),
    ]);
    expect(combined.status).toBe('fail');
    expect(combined.reason).toBe('sonnet: 401; opus: 401; mini: no such model; nano: cut');
    expect(combined.fix).toBe('check the key; name a model the API knows');
  });
});
