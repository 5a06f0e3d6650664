import { lazy, memo, Suspense, useCallback, useDeferredValue, useEffect, useLayoutEffect, useMemo, useReducer, useRef, useState, type ReactNode } from 'react';
import { convertInWorker, warmUpWhenIdle } from '../conversion/bridge.ts';
import { notify } from '../app/notify.ts';
import { subscribeToUpdate } from '../app/serviceWorker.ts';
import { config } from '../app/config.ts';
import { EMAIL_MESSAGES, emailProblem, normaliseEmail } from '../features/email/email.ts';
import { EmailField, focusEmailField } from '../features/email/EmailField.tsx';
import { reportConversionStarted, warmUpIntegrations } from '../features/integrations/report.ts';
import { DropZone } from '../features/intake/DropZone.tsx';
import { SelectedFilesGrid } from '../features/intake/SelectedFilesGrid.tsx';
import { useSelectedFiles } from '../features/intake/useSelectedFiles.ts';
import { ActionBar } from '../features/queue/ActionBar.tsx';
import { planConvert } from '../features/queue/convertPlan.ts';
import { QueueList, VIRTUAL_FROM } from '../features/queue/QueueList.tsx';
import { loadVirtualJobList } from '../features/queue/loadVirtualJobList.ts';
import { useBatchEstimate } from '../features/queue/useBatchEstimate.ts';
import { useConversionQueue, useIsConverting, useOutcomes } from '../features/queue/useConversionQueue.ts';
import { SettingsPanel } from '../features/settings/SettingsPanel.tsx';
import { DEFAULT_SETTINGS, settingsKey, targetSizeMissing } from '../features/settings/settings.ts';
import { settingsReducer } from '../features/settings/settingsReducer.ts';
import { countOf } from '../lib/plural.ts';
import type { ConversionQueue } from '../conversion/conversionQueue.ts';
import type { ConversionJob } from '../conversion/jobs.ts';
import type { CompareSubject } from '../features/compare/CompareDialog.tsx';
import { loadCompareDialog } from '../features/compare/loadCompareDialog.ts';
import { whenIdle } from '../lib/frames.ts';
import { sameEntries, useKeptWhileSame } from '../app/useKeptWhileSame.ts';
import type { SelectedFile } from '../features/intake/useSelectedFiles.ts';
import type { ConversionSettings } from '../features/settings/settings.ts';

function planFor(files: readonly SelectedFile[], outcomes: ReturnType<ConversionQueue['getOutcomes']>, settings: ConversionSettings) {
  return planConvert(files, outcomes, settingsKey(settings), { targetSizeMissing: targetSizeMissing(settings) });
}

const SelectedFilesWithStates = memo(function SelectedFilesWithStates({ queue, files, settings, onRemove, onClear, onPreview, onShown }: {
  queue: ConversionQueue;
  files: readonly SelectedFile[];
  settings: ConversionSettings;
  onRemove: (id: string) => void;
  onClear: () => void;
  onPreview: (file: File, opener: HTMLElement) => void;
  onShown: (id: string) => () => void;
}) {
  // What Convert would do, for each part that shows it: each subscribes on its own, so a job finishing re-renders
  // the file cards and the action bar, not the page with its settings, in the queue's transition (useQueueValue).
  const outcomes = useOutcomes(queue);
  const plan = useMemo(() => planFor(files, outcomes, settings), [files, outcomes, settings]);
  // A setting changed often leaves every card's state as it was (all "Ready to convert" before a batch): the grid,
  // memoised, then skips its render (and its list's measuring) on a tap.
  const states = useKeptWhileSame(plan.states, sameEntries);
  return <SelectedFilesGrid files={files} states={states} onRemove={onRemove} onClear={onClear} onPreview={onPreview} onShown={onShown} />;
});

const ConvertBar = memo(function ConvertBar({ queue, files, settings, email, onConvert, onEmailHint }: {
  queue: ConversionQueue;
  files: readonly SelectedFile[];
  settings: ConversionSettings;
  email: string;
  onConvert: () => void;
  onEmailHint: () => void;
}) {
  const outcomes = useOutcomes(queue);
  const plan = useMemo(() => planFor(files, outcomes, settings), [files, outcomes, settings]);
  const converting = useIsConverting(queue);
  const toConvert = useMemo(() => plan.toConvert.map((f) => f.file), [plan]);
  const estimate = useBatchEstimate(plan.blocked ? NO_FILES : toConvert, settings, converting, queue.keepsOnDevice);
  return (
    <ActionBar
      queue={queue}
      label={converting ? 'Converting...' : `Convert ${countOf(plan.toConvert.length, 'image')}${plan.again ? ' again with new settings' : ''}`}
      disabled={converting || email === '' || plan.blocked !== null}
      hint={plan.blocked ?? (!converting && email === '' ? 'Enter your e-mail address to convert.' : null)}
      onHint={!plan.blocked && email === '' ? onEmailHint : undefined}
      onConvert={onConvert}
      estimate={estimate}
    />
  );
});

const NO_FILES: readonly File[] = [];

/**
 * A part of the prerendered page that React takes over after the rest: a Suspense boundary in server HTML is
 * hydrated after the page around it, in slices React can pause between, and at once if it is tapped or its props
 * change first. On a phone the page's hydration was one long task; with the settings apart it is a short one. Nothing
 * inside suspends.
 */
function HydratedLater({ children }: { children: ReactNode }) {
  return <Suspense>{children}</Suspense>;
}

/** What never changes, made once: a settings tap re-renders the page, and React skips an element it has seen. */
const ABOUT = (
  <>
    <section className="card info" aria-labelledby="info-title">
      <h2 id="info-title">How it works</h2>
      <div className="info__grid">
        <div>
          <h3>Private by design</h3>
          <p>
            Decoding, resizing and encoding run on your device, in background workers. Your images never leave your device and
            your e-mail is not stored. Results wait on this device, through a reload or a closed tab, until you download or clear
            them (a day at most).
          </p>
        </div>
        <div>
          <h3>Five formats</h3>
          <p>
            Convert between JPG, PNG, WebP, AVIF and JPEG XL, and from iPhone HEIC, TIFF, GIF and BMP. WebP, AVIF and JPEG XL are usually far
            smaller than JPG at the same quality; PNG keeps every pixel, and so does JPEG XL at 100%.
          </p>
        </div>
        <div>
          <h3>Real encoders</h3>
          <p>
            With optimised compression on, JPG goes through jpegli (from the JPEG XL project) and PNG through oxipng, for smaller
            files than a browser's built-in export at the same look; AVIF always goes through libavif, and WebP through libwebp.
          </p>
        </div>
        <div>
          <h3>Works offline</h3>
          <p>After your first visit the page and its encoders are kept on your device, so it opens and converts without a network connection.</p>
        </div>
      </div>
    </section>

    <section className="donate" aria-label="Support">
      <p>Love this tool? Support its development:</p>
      <div className="donate__links">
        <a className="button button--ghost" href={config.donation.paypalUrl} target="_blank" rel="noopener noreferrer">
          Donate via PayPal
        </a>
        <a className="button button--ghost" href={config.donation.coffeeUrl} target="_blank" rel="noopener noreferrer">
          Buy me a coffee
        </a>
      </div>
    </section>
  </>
);

const UPDATE_READY = 'A new version is available';

/** Loaded ahead of the first comparison once there are files (loadCompareDialog): the idle page does not need it. */
const CompareDialog = lazy(loadCompareDialog);

/** What the compare dialog shows, the button to give the focus back to, and what to stop when it closes (a preview's conversion). */
interface Comparing {
  subject: CompareSubject;
  opener: HTMLElement | null;
  stop?: () => void;
}

const FOOTER = (
  <footer className="app-footer">
    <div className="container">
      <p>
        Your images never leave your device: every conversion runs in your browser. Files are never stored anywhere else: results wait
        on this device until you download or clear them, a day at most.
      </p>
      <p className="app-footer__small">© {new Date().getFullYear()} Pixel Converter</p>
    </div>
  </footer>
);

export function ConverterPage() {
  const { files, addFiles, removeFile, clearFiles, wantThumbnail } = useSelectedFiles();
  const [settings, dispatch] = useReducer(settingsReducer, DEFAULT_SETTINGS);
  const [email, setEmail] = useState('');
  const emailInput = useRef<HTMLInputElement>(null);
  const { queue } = useConversionQueue({ onSettingsRestored: useCallback((restored: ConversionSettings) => dispatch({ type: 'restore', settings: restored }), []) });

  const validFiles = files.filter((f) => f.isValid);
  const hasValidFiles = validFiles.length > 0;

  // "Email required" / "Invalid email" go as soon as the address is fine: they no longer hold.
  const emailFine = emailProblem(email) === null;
  useEffect(() => {
    if (!emailFine) return;
    for (const problem of Object.values(EMAIL_MESSAGES)) notify.dismiss(problem.title);
    warmUpIntegrations();
  }, [emailFine]);

  // A new version of the app is offered between batches, never in the middle of one, and taken only after it.
  useEffect(() => subscribeToUpdate((apply) => queue.whenIdle(() => notify.offer(UPDATE_READY, 'Reload', () => queue.whenIdle(apply)))), [queue]);

  // The settings panel shows a change at once; what follows from it (each file's state, Convert's count, the codecs
  // to warm up) renders after, in the background, where a tap during a batch does not wait for it.
  const deferredSettings = useDeferredValue(settings);

  // Once there are files, the compare dialog is fetched and compiled while the page is idle, not on the tap that opens it.
  useEffect(() => (hasValidFiles ? whenIdle(() => void loadCompareDialog().catch(() => undefined)) : undefined), [hasValidFiles]);

  // Files enough for a long queue: its list is fetched while the page is idle, so that Convert shows it at once rather
  // than its first rows standing in for it, laid out twice in the frames that start the batch.
  const longQueueAhead = validFiles.length >= VIRTUAL_FROM;
  useEffect(() => (longQueueAhead ? whenIdle(() => void loadVirtualJobList().catch(() => undefined)) : undefined), [longQueueAhead]);

  // Once there is something to convert, have the codecs the settings need ready before Convert, in as many workers
  // as the files would use.
  const validCount = validFiles.length;
  useEffect(() => (validCount > 0 ? warmUpWhenIdle(deferredSettings, validCount) : undefined), [validCount, deferredSettings]);

  function convert() {
    const plan = planFor(files, queue.getOutcomes(), settings);
    if (plan.blocked || plan.toConvert.length === 0) return;
    const problem = emailProblem(email);
    if (problem) {
      notify.destructive(EMAIL_MESSAGES[problem].title, EMAIL_MESSAGES[problem].message);
      return;
    }
    // The configured calls go first and run beside the batch: none of them is awaited.
    reportConversionStarted({ email: normaliseEmail(email), settings, files: plan.toConvert.map((f) => f.file) });
    queue.start(plan.toConvert, settings);
  }

  // Convert and Retry act with the page as it is when pressed; stable callbacks, so a setting change does not
  // re-render the queue or the action bar for them.
  const latest = useRef({ convert, settings });
  useLayoutEffect(() => {
    latest.current = { convert, settings };
  });
  const onConvert = useCallback(() => latest.current.convert(), []);
  const retry = useCallback((id: string) => queue.retry(id, latest.current.settings), [queue]);
  // The field sits in a boundary that may hydrate after the bar (HydratedLater): focusEmailField finds it either way.
  const focusEmail = useCallback(() => focusEmailField(emailInput), []);
  const [comparing, setComparing] = useState<Comparing | null>(null);
  const compareJob = useCallback((job: ConversionJob, opener: HTMLElement) => {
    if (job.outputBlob) setComparing({ subject: { heading: `Compare ${job.file.name}`, name: job.file.name, original: job.file, output: job.outputBlob, look: job.look, settings: job.settings }, opener });
  }, []);
  // A preview converts the file with the settings as they are, in memory (not kept, not a job), and stops if closed first.
  const previewFile = useCallback((file: File, opener: HTMLElement) => {
    const { settings: now } = latest.current;
    const stop = new AbortController();
    const converted = convertInWorker(file, now, { signal: stop.signal, keepAt: null, judgeLater: false, onProgress: () => {} });
    const output = converted.then((result) => result.blob);
    const look = converted.then((result) => result.look);
    output.catch(() => undefined);
    look.catch(() => undefined);
    setComparing({ subject: { heading: `Preview ${file.name}`, name: file.name, original: file, output, look, settings: now }, opener, stop: () => stop.abort() });
  }, []);
  const comparingNow = useRef(comparing);
  comparingNow.current = comparing;
  const endComparing = useCallback(() => {
    comparingNow.current?.stop?.();
    setComparing(null);
  }, []);

  return (
    <>
      <header className="app-header">
        <div className="container app-header__inner">
          <a className="brand" href="/">
            <img src="/favicon.svg" alt="" width={28} height={28} />
            <span>Pixel Converter</span>
          </a>
        </div>
      </header>

      <main className="container page">
        <div className="intro">
          <h1>Convert images in your browser</h1>
          <p>JPG, PNG, WebP, AVIF and JPEG XL — resized, adjusted and compressed on your device. Nothing is uploaded.</p>
        </div>

        <div className="layout">
          <div className="layout__main">
            <DropZone onFiles={addFiles} />
            <SelectedFilesWithStates queue={queue} files={files} settings={deferredSettings} onRemove={removeFile} onClear={clearFiles} onPreview={previewFile} onShown={wantThumbnail} />
            <QueueList queue={queue} onRetry={retry} onCompare={compareJob} />
          </div>
          <aside className="layout__side">
            <HydratedLater>
              <SettingsPanel settings={settings} dispatch={dispatch}>
                <EmailField value={email} onChange={setEmail} onSubmit={onConvert} inputRef={emailInput} />
              </SettingsPanel>
            </HydratedLater>
          </aside>
        </div>

        <HydratedLater>{ABOUT}</HydratedLater>
      </main>

      {FOOTER}

      {comparing ? (
        <Suspense fallback={null}>
          <CompareDialog subject={comparing.subject} opener={comparing.opener} onClose={endComparing} />
        </Suspense>
      ) : null}

      {/* Last on the page, so that stuck to the bottom of the screen it is there at every scroll, the page's end too. */}
      <ConvertBar queue={queue} files={files} settings={deferredSettings} email={email} onConvert={onConvert} onEmailHint={focusEmail} />
    </>
  );
}
