/**
 * What the engine scenarios need of a browser, whichever protocol drives it: Firefox through WebDriver BiDi
 * (puppeteer-core), WebKitGTK through classic WebDriver (WebKitWebDriver). Playwright cannot drive Debian's builds of
 * either, so this is the small second runner beside it.
 */
export interface EngineSession {
  readonly engine: string;
  readonly version: string;
  goto(url: string): Promise<void>;
  /**
   * Opens `url` in a new tab and closes the tab before, with its page and the page's workers. A page left by
   * navigating may live on in the back-forward cache, frozen with what it had open: WebKitGTK kept an app page whose
   * IndexedDB transaction then never ended, and the next scenario's cleanup waited on it until the script timed out.
   */
  gotoInNewTab(url: string): Promise<void>;
  /** Runs `body` as the body of an async function in the page and gives back its (JSON) result. */
  run<T>(body: string): Promise<T>;
  /** Sets files on a file input as the picker does, from paths on this machine. */
  upload(selector: string, paths: readonly string[]): Promise<void>;
  /** Types into a field with the driver's key events, as a person does. */
  type(selector: string, text: string): Promise<void>;
  close(): Promise<void>;
}

/** What a wait needs: the page, and the scenario's one limit (run.ts), which ends every wait still going on. */
export interface Waiting {
  session: EngineSession;
  signal: AbortSignal;
  /**
   * A shorter limit for this one wait, in milliseconds. A deadline, not `AbortSignal.any` with
   * `AbortSignal.timeout`: Node 20 may collect a timeout signal held only by `any()`'s result, which then never aborts
   * (nodejs/node#57736), and so a two-minute wait ran to the scenario's six.
   */
  limitMs?: number;
}

/**
 * A script the page's navigation cut short: the page is on its way, which is "not yet", not an answer. WebKitGTK's
 * driver says "no such frame: Callback was not called before the unload event" when `open()`'s wait for the new page
 * ran in the old one as it unloaded (once in a clean clone's run, 2026-11-30).
 */
const CUT_SHORT_BY_NAVIGATION = /unload event|no such frame|context was destroyed|navigated/i;

/**
 * Polls a page expression until it is truthy, however long the page takes on this machine: the only limit is the
 * scenario's (`signal`), or the wait's own `limitMs`. Its last value is in the error when a limit ends it, and what
 * `describe` (another page expression) says of the page then.
 */
export async function waitFor<T>({ session, signal, limitMs }: Waiting, body: string, what: string, describe?: string): Promise<T> {
  const deadline = limitMs === undefined ? Infinity : Date.now() + limitMs;
  let last: T | undefined;
  while (!signal.aborted && Date.now() < deadline) {
    last = await session.run<T>(body).catch((error: unknown) => {
      if (CUT_SHORT_BY_NAVIGATION.test(String(error))) return undefined;
      throw error;
    });
    if (last) return last;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const seen = describe ? `; the page: ${JSON.stringify(await session.run<unknown>(describe).catch((error: unknown) => String(error)))}` : '';
  throw new Error(`${session.engine}: the time ran out waiting for ${what} (last: ${JSON.stringify(last)})${seen}`);
}
