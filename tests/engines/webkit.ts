import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import type { EngineSession } from './session.ts';

export const MINIBROWSER_PATH = process.env.MINIBROWSER_PATH || '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';

/** How long Xvfb and the driver may take to come up before the runner gives up on them. */
const STARTUP_LIMIT_MS = 60_000;

/** A free TCP port on the loopback interface. */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** An X display for the browser's window: Xvfb on the first free display number. */
async function startXvfb(): Promise<{ display: string; process: ChildProcess }> {
  let number = 99;
  while (existsSync(`/tmp/.X11-unix/X${number}`) || existsSync(`/tmp/.X${number}-lock`)) number++;
  const display = `:${number}`;
  const xvfb = spawn('Xvfb', [display, '-screen', '0', '1280x1024x24', '-nolisten', 'tcp'], { stdio: 'ignore' });
  // Up in a moment, longer on a busy machine: the limit is only for an Xvfb that never comes up.
  for (const deadline = Date.now() + STARTUP_LIMIT_MS; Date.now() < deadline && !existsSync(`/tmp/.X11-unix/X${number}`); ) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { display, process: xvfb };
}

/**
 * WebKitGTK's MiniBrowser under Xvfb, driven by WebKitWebDriver over classic W3C WebDriver: the few commands the
 * scenarios use, over fetch.
 */
export async function startWebKit(): Promise<EngineSession> {
  const xvfb = await startXvfb();
  const port = await freePort();
  // The page is painted without accelerated compositing: with no GPU here it ran on Mesa's software OpenGL (llvmpipe),
  // a fifth of WebKitGTK's CPU in the route scenario (10.8 of 52 CPU-s), taken from the conversions the scenarios
  // wait for; as Chromium's tests run with --disable-gpu. What is tested, the engine's decoders, canvas and workers,
  // is the same either way (docs/testing.md, "The engines' time").
  const env = { ...process.env, DISPLAY: xvfb.display, WEBKIT_DISABLE_COMPOSITING_MODE: '1' };
  const driver = spawn('WebKitWebDriver', [`--port=${port}`], { stdio: 'ignore', env });
  const base = `http://127.0.0.1:${port}`;
  const stop = () => {
    driver.kill();
    xvfb.process.kill();
  };

  async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(base + path, { method, headers: { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    const { value } = (await response.json()) as { value: T & { error?: string; message?: string } };
    if (!response.ok) throw new Error(`WebKitWebDriver ${method} ${path}: ${value.error}: ${value.message}`);
    return value;
  }

  let session: { sessionId: string; capabilities: { browserVersion: string } } | null = null;
  for (const deadline = Date.now() + STARTUP_LIMIT_MS; !session; ) {
    try {
      session = await call('POST', '/session', {
        capabilities: { alwaysMatch: { browserName: 'MiniBrowser', 'webkitgtk:browserOptions': { binary: MINIBROWSER_PATH, args: ['--automation'] } } },
      });
    } catch (error) {
      // The driver takes a moment to listen.
      if (Date.now() > deadline) {
        stop();
        throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  const id = session.sessionId;
  const element = async (selector: string) => {
    const found = await call<Record<string, string>>('POST', `/session/${id}/element`, { using: 'css selector', value: selector });
    return Object.values(found)[0]!;
  };
  return {
    engine: 'WebKitGTK',
    version: session.capabilities.browserVersion,
    goto: async (url) => void (await call('POST', `/session/${id}/url`, { url })),
    gotoInNewTab: async (url) => {
      const { handle } = await call<{ handle: string }>('POST', `/session/${id}/window/new`, { type: 'tab' });
      await call('DELETE', `/session/${id}/window`);
      await call('POST', `/session/${id}/window`, { handle });
      await call('POST', `/session/${id}/url`, { url });
    },
    run: async <T>(body: string) => {
      // execute/async hands the script a callback as its last argument; errors come back as values, not as hangs.
      const script = `const done = arguments[arguments.length - 1];
        (async () => { ${body} })().then((value) => done({ value }), (error) => done({ error: String(error && error.stack || error) }));`;
      const result = await call<{ value?: T; error?: string }>('POST', `/session/${id}/execute/async`, { script, args: [] }).catch((error: unknown) => {
        // Which script it was, so a hang names itself.
        throw new Error(`${String(error instanceof Error ? error.message : error)} (running: ${body.trim().replace(/\s+/g, ' ').slice(0, 160)}…)`);
      });
      if (result.error) throw new Error(result.error);
      return result.value as T;
    },
    upload: async (selector, paths) => void (await call('POST', `/session/${id}/element/${await element(selector)}/value`, { text: paths.join('\n') })),
    type: async (selector, text) => void (await call('POST', `/session/${id}/element/${await element(selector)}/value`, { text })),
    close: async () => {
      await call('DELETE', `/session/${id}`).catch(() => undefined);
      stop();
    },
  };
}
