import { describe, expect, it } from 'vitest';
import { comparePagePathFor, pagePathFor } from '../../src/report/disk/pages.js';
import { openerCommand } from '../../src/system/opener.js';

describe('openerCommand', () => {
  it('uses each platform’s own opener, the path as one argument', () => {
    expect(openerCommand('linux', '/r/a b.html')).toEqual({
      file: 'xdg-open',
      args: ['/r/a b.html'],
      verbatim: false,
    });
    expect(openerCommand('freebsd', '/r/a.html').file).toBe('xdg-open');
    expect(openerCommand('darwin', '/r/a b.html')).toEqual({
      file: 'open',
      args: ['/r/a b.html'],
      verbatim: false,
    });
    // `start` takes its first quoted argument as a window title: an empty one, then the quoted path.
    expect(openerCommand('win32', 'C:\\r\\a b.html')).toEqual({
      file: 'cmd',
      args: ['/d', '/s', '/c', 'start "" "C:\\r\\a b.html"'],
      verbatim: true,
    });
  });
});

describe('page paths', () => {
  it('puts a report’s page beside it, and a comparison’s in the candidate’s folder', () => {
    expect(pagePathFor('/out/2025-03-14-pdf.json')).toBe('/out/2025-03-14-pdf.html');
    expect(pagePathFor('/out/report')).toBe('/out/report.html');
    expect(comparePagePathFor('/old/a.json', '/new/b.json')).toBe('/new/a-vs-b.html');
  });
});
