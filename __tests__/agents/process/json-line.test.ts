import { describe, expect, it } from 'vitest';
import { asNumber, asString, jsonRecord } from '../../../src/agents/process/json-line.js';

describe('jsonRecord', () => {
  it('reads a line holding a JSON object', () => {
    expect(jsonRecord('{"type":"result","n":1}')).toEqual({ type: 'result', n: 1 });
  });

  it('is undefined for a line that is not JSON, or JSON that is not an object', () => {
    expect(jsonRecord('')).toBeUndefined();
    expect(jsonRecord('{"type":')).toBeUndefined();
    expect(jsonRecord('[1,2]')).toBeUndefined();
    expect(jsonRecord('null')).toBeUndefined();
    expect(jsonRecord('"text"')).toBeUndefined();
  });
});

describe('asString and asNumber', () => {
  it('pass a field of their type through', () => {
    expect(asString('')).toBe('');
    expect(asString('x')).toBe('x');
    expect(asNumber(0)).toBe(0);
    expect(asNumber(-2.5)).toBe(-2.5);
  });

  it('read a field of another type as absent', () => {
    expect(asString(1)).toBeUndefined();
    expect(asString(null)).toBeUndefined();
    expect(asNumber('1')).toBeUndefined();
    expect(asNumber(Number.NaN)).toBeUndefined();
    expect(asNumber(Number.POSITIVE_INFINITY)).toBeUndefined();
  });
});
