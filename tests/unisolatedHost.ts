import type { Route } from '@playwright/test';
import { CROSS_ORIGIN_ISOLATION } from '../core/isolation.ts';

const ISOLATION_HEADERS = new Set(Object.keys(CROSS_ORIGIN_ISOLATION).map((name) => name.toLowerCase()));

/**
 * Answers a request as the server did, without the headers that isolate the page (core/isolation.ts): the app as a
 * host that cannot set headers serves it. For `page.route` or `context.route`, in the end-to-end tests and the bench.
 */
export async function answerWithoutIsolationHeaders(route: Route): Promise<void> {
  const response = await route.fetch();
  const headers = Object.fromEntries(Object.entries(response.headers()).filter(([name]) => !ISOLATION_HEADERS.has(name.toLowerCase())));
  await route.fulfill({ response, headers });
}
