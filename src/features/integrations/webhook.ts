import { conversionCompletedFields, conversionStartedFields, type CompletedConversion, type PageContext, type StartedConversion, type WebhookFields } from './webhookFields.ts';

/** A keepalive request may carry at most 64 KiB; a longer list of file names goes as an ordinary request. */
const KEEPALIVE_LIMIT = 60_000;

/**
 * One form-encoded POST (`application/x-www-form-urlencoded`, set by the body's type), kept alive past the page's
 * unload when small enough. Resolves when the receiver has answered with a success, rejects otherwise.
 */
export async function postForm(url: string, fields: WebhookFields): Promise<void> {
  const body = new URLSearchParams(fields);
  const response = await fetch(url, {
    method: 'POST',
    body,
    keepalive: body.toString().length < KEEPALIVE_LIMIT,
    credentials: 'omit',
  });
  if (!response.ok) throw new Error(`the webhook answered ${response.status}`);
}

/** Fire-and-forget: a failure is logged, never thrown. */
function send(url: string, fields: WebhookFields): void {
  postForm(url, fields).catch((error: unknown) => console.error(`The ${fields.action} webhook call failed (conversion goes on):`, error));
}

export function postConversionStarted(url: string, run: StartedConversion, context: PageContext): void {
  send(url, conversionStartedFields(run, context));
}

export function postConversionCompleted(url: string, run: CompletedConversion, context: PageContext): void {
  send(url, conversionCompletedFields(run, context));
}
