import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { guardedOutput } from '../../src/cli/output.js';

/** A stream whose reader is gone: every write fails with EPIPE, as a closed pipe's does. */
function closedPipe(): Writable & { attempts: number } {
  const stream = new Writable({
    write(_chunk, _encoding, callback) {
      stream.attempts++;
      callback(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
    },
  }) as Writable & { attempts: number };
  stream.attempts = 0;
  return stream;
}

describe('guardedOutput', () => {
  it('turns an EPIPE into a stream that is gone, and drops every later write', async () => {
    const pipe = closedPipe();
    const out = guardedOutput(pipe);
    out.write('first line\n');
    await new Promise((resolve) => setImmediate(resolve));
    expect(out.gone).toBe(true);
    out.write('second line\n');
    out.write('third line\n');
    await new Promise((resolve) => setImmediate(resolve));
    expect(pipe.attempts).toBe(1);
  });

  it('masks what it writes', () => {
    const written: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, callback) {
        written.push(String(chunk));
        callback();
      },
    });
    guardedOutput(sink).write('echoed sk-ant-abc123 back\n');
    expect(written).toEqual(['echoed *** back\n']);
  });
});
