import { type ChildProcess, spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';

/**
 * A real browser for the tests: Debian's `chromium`, headless, driven over the DevTools protocol
 * on a pipe (`--remote-debugging-pipe`: NUL-terminated JSON on fds 3 and 4), so no WebSocket
 * client, no port and no browser download are needed. Not a fake: the name of the folder is where
 * the tests' shared drivers live.
 */

export const CHROMIUM = process.env.SKILLTRIGGER_CHROMIUM ?? '/usr/bin/chromium';

export function chromiumInstalled(): boolean {
  try {
    accessSync(CHROMIUM, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The flags of a quiet, private browser: no first-run, no background or component traffic, no QUIC. */
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-extensions',
  '--disable-default-apps',
  '--hide-scrollbars',
  '--mute-audio',
  '--remote-debugging-pipe',
];

type Params = Record<string, unknown>;

interface Pending {
  resolve(value: Params): void;
  reject(error: Error): void;
  method: string;
}

/** What a page did while it loaded and was looked at. */
export interface PageActivity {
  /** Console messages and log entries, with their level (`error`, `warning`, `info`, …). */
  messages: { level: string; text: string; source: string }[];
  /** Uncaught exceptions. */
  exceptions: string[];
  /** Every network request the page made, by URL (the navigation to the page itself included). */
  requests: string[];
}

export class Browser {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly listeners: ((method: string, params: Params, sessionId?: string) => void)[] = [];
  private buffer = '';
  stderr = '';

  private constructor(
    private readonly child: ChildProcess,
    private readonly profile: string,
  ) {
    const input = child.stdio[4] as Readable;
    input.setEncoding('utf8');
    input.on('data', (chunk: string) => this.receive(chunk));
    child.stderr?.setEncoding('utf8').on('data', (d: string) => {
      this.stderr += d;
    });
    child.on('exit', () => {
      for (const p of this.pending.values())
        p.reject(new Error(`chromium exited during ${p.method}: ${this.stderr}`));
      this.pending.clear();
    });
  }

  /** Starts chromium with a new, empty profile folder. */
  static async launch(): Promise<Browser> {
    const profile = await mkdtemp(path.join(tmpdir(), 'skilltrigger-chromium-'));
    const child = spawn(CHROMIUM, [...FLAGS, `--user-data-dir=${profile}`, 'about:blank'], {
      stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'],
    });
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', resolve);
      child.once('error', (error) =>
        reject(
          new Error(`cannot start ${CHROMIUM} (${error.message}): install it with apt-get install chromium`),
        ),
      );
    });
    const browser = new Browser(child, profile);
    await browser.send('Browser.getVersion');
    return browser;
  }

  private receive(chunk: string): void {
    this.buffer += chunk;
    let end = this.buffer.indexOf('\0');
    while (end !== -1) {
      const message = JSON.parse(this.buffer.slice(0, end)) as {
        id?: number;
        method?: string;
        params?: Params;
        result?: Params;
        error?: { message: string };
        sessionId?: string;
      };
      this.buffer = this.buffer.slice(end + 1);
      if (message.id !== undefined) {
        const p = this.pending.get(message.id);
        this.pending.delete(message.id);
        if (message.error) p?.reject(new Error(`${p.method}: ${message.error.message}`));
        else p?.resolve(message.result ?? {});
      } else if (message.method) {
        for (const listen of this.listeners) listen(message.method, message.params ?? {}, message.sessionId);
      }
      end = this.buffer.indexOf('\0');
    }
  }

  send(method: string, params: Params = {}, sessionId?: string): Promise<Params> {
    const id = this.nextId++;
    const output = this.child.stdio[3] as Writable;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, method });
      output.write(`${JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) })}\0`);
    });
  }

  on(listen: (method: string, params: Params, sessionId?: string) => void): void {
    this.listeners.push(listen);
  }

  /** A new tab, attached, with the domains that report what the page does enabled. */
  async newPage(width = 1200, height = 900): Promise<Page> {
    const { targetId } = (await this.send('Target.createTarget', { url: 'about:blank' })) as {
      targetId: string;
    };
    const { sessionId } = (await this.send('Target.attachToTarget', { targetId, flatten: true })) as {
      sessionId: string;
    };
    const page = new Page(this, sessionId);
    for (const domain of ['Page', 'Runtime', 'Log', 'Network']) await page.send(`${domain}.enable`);
    await page.send('Emulation.setDeviceMetricsOverride', {
      width,
      height,
      deviceScaleFactor: 1,
      mobile: false,
    });
    return page;
  }

  async close(): Promise<void> {
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    await this.send('Browser.close').catch(() => undefined);
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
    await rm(this.profile, { recursive: true, force: true });
  }
}

export class Page {
  readonly activity: PageActivity = { messages: [], exceptions: [], requests: [] };
  private loaded: (() => void)[] = [];

  constructor(
    private readonly browser: Browser,
    private readonly sessionId: string,
  ) {
    browser.on((method, params, session) => {
      if (session !== sessionId) return;
      switch (method) {
        case 'Runtime.consoleAPICalled': {
          const args = (params.args as { value?: unknown; description?: string }[]) ?? [];
          this.activity.messages.push({
            level: String(params.type),
            source: 'console',
            text: args.map((a) => String(a.value ?? a.description ?? '')).join(' '),
          });
          break;
        }
        case 'Log.entryAdded': {
          const entry = params.entry as { level: string; text: string; source: string };
          this.activity.messages.push({ level: entry.level, text: entry.text, source: entry.source });
          break;
        }
        case 'Runtime.exceptionThrown':
          this.activity.exceptions.push(JSON.stringify(params.exceptionDetails));
          break;
        case 'Network.requestWillBeSent':
          this.activity.requests.push(String((params.request as { url: string }).url));
          break;
        case 'Page.loadEventFired':
          for (const done of this.loaded.splice(0)) done();
          break;
      }
    });
  }

  send(method: string, params: Params = {}): Promise<Params> {
    return this.browser.send(method, params, this.sessionId);
  }

  /** Navigates and waits for the load event. */
  async open(url: string): Promise<void> {
    const loaded = new Promise<void>((resolve) => this.loaded.push(resolve));
    const result = (await this.send('Page.navigate', { url })) as { errorText?: string };
    if (result.errorText) throw new Error(`navigating to ${url}: ${result.errorText}`);
    await loaded;
  }

  /** Evaluates an expression in the page (DevTools evaluation, not subject to the page's policy). */
  async evaluate<T>(expression: string): Promise<T> {
    const { result, exceptionDetails } = (await this.send('Runtime.evaluate', {
      expression,
      returnByValue: true,
    })) as { result: { value: T }; exceptionDetails?: unknown };
    if (exceptionDetails) throw new Error(`evaluating ${expression}: ${JSON.stringify(exceptionDetails)}`);
    return result.value;
  }

  /** `prefers-color-scheme` and the media type, as a user's system or print dialog would set them. */
  async emulate(options: { scheme?: 'light' | 'dark'; media?: 'screen' | 'print' }): Promise<void> {
    await this.send('Emulation.setEmulatedMedia', {
      media: options.media ?? '',
      features: [{ name: 'prefers-color-scheme', value: options.scheme ?? 'light' }],
    });
  }

  /** A PNG of the whole page (not only the viewport). */
  async screenshot(): Promise<Buffer> {
    const { cssContentSize } = (await this.send('Page.getLayoutMetrics')) as {
      cssContentSize: { width: number; height: number };
    };
    const { data } = (await this.send('Page.captureScreenshot', {
      format: 'png',
      captureBeyondViewport: true,
      clip: { x: 0, y: 0, width: cssContentSize.width, height: Math.ceil(cssContentSize.height), scale: 1 },
    })) as { data: string };
    return Buffer.from(data, 'base64');
  }

  /** The page printed to PDF, as the browser's print dialog would. */
  async printToPdf(): Promise<Buffer> {
    const { data } = (await this.send('Page.printToPDF', { printBackground: true })) as { data: string };
    return Buffer.from(data, 'base64');
  }
}
