import puppeteer from 'puppeteer-core';
import type { EngineSession } from './session.ts';

export const FIREFOX_PATH = process.env.FIREFOX_PATH || '/usr/bin/firefox-esr';

/** Debian's Firefox ESR, driven over WebDriver BiDi: puppeteer-core starts it, no geckodriver needed. */
export async function startFirefox(): Promise<EngineSession> {
  // Generous limits for a busy machine (puppeteer's are 30 s): a scenario's waits on the page have their own (run.ts).
  const browser = await puppeteer.launch({ browser: 'firefox', executablePath: FIREFOX_PATH, headless: true, timeout: 60_000 });
  const openPage = async () => {
    const opened = await browser.newPage();
    opened.setDefaultNavigationTimeout(120_000);
    return opened;
  };
  let page = await openPage();
  const version = await browser.version();
  return {
    engine: 'Firefox',
    version,
    goto: async (url) => void (await page.goto(url, { waitUntil: 'load' })),
    gotoInNewTab: async (url) => {
      const before = page;
      page = await openPage();
      await before.close();
      await page.goto(url, { waitUntil: 'load' });
    },
    run: <T>(body: string) => page.evaluate(`(async () => { ${body} })()`) as Promise<T>,
    upload: async (selector, paths) => {
      const input = await page.$(selector);
      if (!input) throw new Error(`Firefox: no ${selector} to upload to`);
      await (input as import('puppeteer-core').ElementHandle<HTMLInputElement>).uploadFile(...paths);
    },
    type: async (selector, text) => page.type(selector, text),
    close: () => browser.close(),
  };
}
