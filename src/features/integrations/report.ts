import { config } from '../../app/config.ts';
import { createId } from '../../lib/ids.ts';
import type { RunSummary } from '../../conversion/conversionQueue.ts';
import type { PageContext, StartedConversion } from './webhookFields.ts';

/**
 * What the page tells the configured integrations: the e-mail RPC and the webhook's started action when a conversion
 * starts, the completed action when its run has settled. Fire-and-forget: nothing here delays or stops a conversion.
 */

/**
 * With nothing configured nothing is sent or loaded: each is also tested on its raw variable, which the build replaces
 * by its value, so an unconfigured build has no supabase-js or webhook chunk at all.
 */
const backend = import.meta.env.VITE_SUPABASE_URL ? config.integrations.backend : null;
const webhookUrl = import.meta.env.VITE_WEBHOOK_URL ? config.integrations.webhookUrl : null;

const SESSION_KEY = 'pixel-converter:session-id';
const RUN_KEY = 'pixel-converter:started-run';
let memorySessionId: string | null = null;

/** One id for the tab's page session (sessionStorage), so reloads in the same tab keep it. */
function sessionId(): string {
  try {
    const kept = sessionStorage.getItem(SESSION_KEY);
    if (kept) return kept;
    const id = createId();
    sessionStorage.setItem(SESSION_KEY, id);
    return id;
  } catch {
    // Storage refused (a sandboxed frame, a privacy mode): stable for this page's life instead.
    memorySessionId ??= createId();
    return memorySessionId;
  }
}

/** Taken when the event happens, not when the module that sends it has loaded. */
function pageContext(): PageContext {
  return {
    now: new Date(),
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    page: location.origin + location.pathname,
    userAgent: navigator.userAgent,
    sessionId: sessionId(),
  };
}

const logFailure = (what: string) => (error: unknown) => console.error(`${what} failed (conversion goes on):`, error);

type StartedRun = Pick<StartedConversion, 'email' | 'settings'>;

/**
 * The started run's address and settings: what its completed action reports. Kept for the tab's session as well
 * (sessionStorage, as its id), because a run a reload or a discarded tab interrupts ends on the next page, which
 * resumes it from the batch kept on the device (deviceBatch.ts): its completed action is sent from there, with the
 * same session id. A batch resumed in another session (a browser closed, then opened afresh) is not reported.
 */
let currentRun: StartedRun | null = null;

function keepStartedRun(run: StartedRun): void {
  try {
    sessionStorage.setItem(RUN_KEY, JSON.stringify(run));
  } catch {
    // Storage refused: only this page can report the run's end.
  }
}

/** The run this tab's session started last, when a page before this one started it. */
function keptStartedRun(): StartedRun | null {
  try {
    const run = JSON.parse(sessionStorage.getItem(RUN_KEY) ?? 'null') as Partial<StartedRun> | null;
    return typeof run?.email === 'string' && typeof run.settings === 'object' && run.settings !== null ? { email: run.email, settings: run.settings } : null;
  } catch {
    return null;
  }
}

export function reportConversionStarted(run: StartedConversion): void {
  currentRun = { email: run.email, settings: run.settings };
  if (webhookUrl) keepStartedRun(currentRun);
  if (backend) {
    import('./backend.ts').then(({ saveEmail }) => saveEmail(backend, run.email), logFailure('Saving the e-mail address'));
  }
  if (webhookUrl) {
    const context = pageContext();
    import('./webhook.ts').then(({ postConversionStarted }) => postConversionStarted(webhookUrl, run, context), logFailure('The started webhook call'));
  }
}

export function reportConversionFinished(summary: RunSummary): void {
  if (!webhookUrl) return;
  currentRun ??= keptStartedRun();
  if (!currentRun) return;
  const run = { ...currentRun, ...summary };
  const context = pageContext();
  import('./webhook.ts').then(({ postConversionCompleted }) => postConversionCompleted(webhookUrl, run, context), logFailure('The completed webhook call'));
}

/** Loads what the calls need before they are made (once an address is entered), so Convert's tap parses none of it. */
export function warmUpIntegrations(): void {
  if (backend) import('./backend.ts').catch(() => undefined);
  if (webhookUrl) import('./webhook.ts').catch(() => undefined);
}
