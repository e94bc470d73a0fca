import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { expect } from 'vitest';
import type { Browser, Page } from './browser.js';

/**
 * A loopback listener that hostile markup in a page points at: a page that let the markup through
 * as markup would reach it, so every hit is recorded and the tests expect none.
 */
export interface Canary {
  url: string;
  hits: string[];
  close(): Promise<void>;
}

export async function startCanary(): Promise<Canary> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(req.url ?? '');
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Loads a page; it must log no error or warning, make no request but its own, and not reach the canary. */
export async function loadQuietly(browser: Browser, file: string, canary: Canary): Promise<Page> {
  const page = await browser.newPage();
  const url = pathToFileURL(file).href;
  await page.open(url);
  // A moment for anything deferred (a lazy image, a font) to have tried.
  await page.evaluate('new Promise((resolve) => setTimeout(resolve, 300))');
  expect(page.activity.exceptions).toEqual([]);
  expect(page.activity.messages.filter((m) => m.level === 'error' || m.level === 'warning')).toEqual([]);
  expect(page.activity.requests).toEqual([url]);
  expect(canary.hits).toEqual([]);
  return page;
}
