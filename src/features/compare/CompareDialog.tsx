import { useEffect, useId, useLayoutEffect, useRef, useState, type PointerEvent, type WheelEvent } from 'react';
import type { ConversionSettings, Framing } from '../../../core/contract';
import { FORMATS } from '../../../core/formats';
import type { Rect, Size } from '../../../core/geometry';
import { planFor, viewInWorker } from '../../conversion/bridge';
import { formatBytes } from '../../lib/formatBytes';
import { actualSizeZoom, clampViewport, fitted, panBy, scaledRect, visibleRect, zoomAbout, type Viewport } from './viewport';
import './compare.css';

/** What the dialog compares: a source and its output (a finished job's, or a preview's while it converts). */
export interface CompareSubject {
  /** The dialog's title: "Compare photo.jpg", "Preview photo.jpg". */
  heading: string;
  name: string;
  original: Blob;
  /** The output, or a conversion that will give it (a preview of the current settings). */
  output: Blob | Promise<Blob>;
  settings: ConversionSettings;
}

/** A picture drawn in the worker, and the part of the output's pixels it covers. */
interface Picture {
  bitmap: ImageBitmap;
  rect: Rect;
}

interface Side {
  fit: Picture | null;
  detail: Picture | null;
}

/** What the plan says of the pair: how the output frames the source, and both sizes. */
interface Geometry {
  framing: Framing;
  original: Size;
  output: Size;
}

/** Device pixels a picture is drawn at, at most: a 24 MP image shown whole needs no more than the screen has. */
const MAX_BOX_EDGE = 4096;
/** A region is asked for once the view has been still this long (a drag or a pinch asks for none as it goes). */
const DETAIL_AFTER_MS = 150;
/** Each zoom button's step. */
const ZOOM_STEP = 2;

const closeBitmaps = (side: Side) => {
  side.fit?.bitmap.close();
  side.detail?.bitmap.close();
};

/** Draws one side: its fitted picture scaled to the viewport, and the sharper region on top where there is one. */
function drawSide(canvas: HTMLCanvasElement | null, side: Side, viewport: Viewport, ratio: number): void {
  const context = canvas?.getContext('2d');
  if (!canvas || !context) return;
  context.setTransform(1, 0, 0, 1, 0, 0);
  context.clearRect(0, 0, canvas.width, canvas.height);
  context.imageSmoothingQuality = 'high';
  const scale = viewport.zoom * ratio;
  const place = (rect: Rect) => [canvas.width / 2 + (rect.x - viewport.centre.x) * scale, canvas.height / 2 + (rect.y - viewport.centre.y) * scale, rect.width * scale, rect.height * scale] as const;
  for (const picture of [side.fit, side.detail]) if (picture) context.drawImage(picture.bitmap, ...place(picture.rect));
}

/**
 * Before and after, one image: the original (framed as the output frames it: its rotation and crop) left of a divider
 * and the output right of it, both decoded in a worker at the size they are shown; zoom to 1:1 and pan (wheel, buttons,
 * a drag, a pinch), the divider dragged or moved with the arrow keys. Escape or Close ends it and focus goes back to
 * the button that opened it.
 */
export default function CompareDialog({ subject, opener, onClose }: { subject: CompareSubject; opener: HTMLElement | null; onClose: () => void }) {
  const titleId = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  const view = useRef<HTMLDivElement>(null);
  const leftCanvas = useRef<HTMLCanvasElement>(null);
  const rightCanvas = useRef<HTMLCanvasElement>(null);
  const divider = useRef<HTMLInputElement>(null);
  const dividerLine = useRef<HTMLDivElement>(null);
  const [geometry, setGeometry] = useState<Geometry | null>(null);
  const [output, setOutput] = useState<Blob | null>(subject.output instanceof Blob ? subject.output : null);
  const [problem, setProblem] = useState<string | null>(null);
  const [zoomLabel, setZoomLabel] = useState('Fit');

  // The drawing state lives outside React: a drag redraws the canvases at the frame rate without a render.
  const state = useRef({
    viewport: null as Viewport | null,
    view: { width: 1, height: 1 } as Size,
    ratio: 1,
    left: { fit: null, detail: null } as Side,
    right: { fit: null, detail: null } as Side,
    frame: 0,
    generation: 0,
  });

  const outputLabel = FORMATS[subject.settings.outputFormat].label;

  useLayoutEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (!element.open) element.showModal();
    return () => {
      if (element.open) element.close();
    };
  }, []);

  // Focus goes back where the visitor was, whichever way the dialog ends.
  useEffect(() => () => opener?.focus(), [opener]);

  useEffect(() => {
    let live = true;
    planFor(subject.original, subject.settings).then(
      (plan) => {
        if (!live) return;
        const upright = plan.source.turned ? { width: plan.source.size.height, height: plan.source.size.width } : plan.source.size;
        setGeometry({ framing: { rotation: subject.settings.rotation, crop: plan.geometry.crop }, original: upright, output: { width: plan.geometry.width, height: plan.geometry.height } });
      },
      () => live && setProblem('This image cannot be shown.'),
    );
    if (!(subject.output instanceof Blob)) {
      subject.output.then(
        (blob) => live && setOutput(blob),
        () => live && setProblem('The preview could not be made with these settings.'),
      );
    }
    return () => {
      live = false;
    };
  }, [subject]);

  /** Redraws both canvases at the next frame. */
  const redraw = useRef(() => {});
  redraw.current = () => {
    const s = state.current;
    if (s.frame) return;
    s.frame = requestAnimationFrame(() => {
      s.frame = 0;
      if (!s.viewport) return;
      drawSide(leftCanvas.current, s.left, s.viewport, s.ratio);
      drawSide(rightCanvas.current, s.right, s.viewport, s.ratio);
      // Which sides are on screen, for whoever waits for them (the tests, the bench's time to both painted).
      if (view.current) view.current.dataset.drawn = [s.left.fit ? 'original' : '', s.right.fit ? 'output' : ''].filter(Boolean).join(' ');
    });
  };

  // Sizes the canvases to the view and asks the worker for both pictures at that size.
  useEffect(() => {
    const element = view.current;
    if (!geometry || !element) return;
    const s = state.current;
    const measure = () => {
      const { width, height } = element.getBoundingClientRect();
      s.view = { width: Math.max(1, width), height: Math.max(1, height) };
      s.ratio = window.devicePixelRatio || 1;
      for (const canvas of [leftCanvas.current, rightCanvas.current]) {
        if (!canvas) continue;
        canvas.width = Math.round(s.view.width * s.ratio);
        canvas.height = Math.round(s.view.height * s.ratio);
      }
      s.viewport = clampViewport(s.viewport ?? fitted(geometry.output, s.view), geometry.output, s.view, s.ratio);
      redraw.current();
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [geometry]);

  // The fitted pictures: each side as soon as it is drawn.
  useEffect(() => {
    if (!geometry) return;
    const s = state.current;
    const box = { width: Math.min(MAX_BOX_EDGE, Math.round(s.view.width * s.ratio)), height: Math.min(MAX_BOX_EDGE, Math.round(s.view.height * s.ratio)) };
    const whole = { x: 0, y: 0, ...geometry.output };
    let live = true;
    const show = (side: Side, bitmap: ImageBitmap) => {
      if (!live) return bitmap.close();
      side.fit?.bitmap.close();
      side.fit = { bitmap, rect: whole };
      redraw.current();
    };
    viewInWorker(subject.original, { framing: geometry.framing, region: null, box }).then((bitmap) => show(s.left, bitmap), () => live && setProblem('The original could not be decoded.'));
    if (output) viewInWorker(output, { framing: null, region: null, box }).then((bitmap) => show(s.right, bitmap), () => live && setProblem('The output could not be decoded.'));
    return () => {
      live = false;
    };
  }, [geometry, output, subject.original]);

  useEffect(
    () => () => {
      const s = state.current;
      cancelAnimationFrame(s.frame);
      closeBitmaps(s.left);
      closeBitmaps(s.right);
    },
    [],
  );

  /** Once the view is still: where the fitted pictures are enlarged, the visible region at full sharpness. */
  const detailTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const askForDetail = () => {
    clearTimeout(detailTimer.current);
    detailTimer.current = setTimeout(() => {
      const s = state.current;
      if (!geometry || !output || !s.viewport) return;
      const generation = ++s.generation;
      const fitScale = (s.left.fit?.bitmap.width ?? 0) / geometry.output.width;
      for (const side of [s.left, s.right]) {
        side.detail?.bitmap.close();
        side.detail = null;
      }
      if (s.viewport.zoom * s.ratio <= fitScale * 1.25) return redraw.current();
      const rect = visibleRect(s.viewport, geometry.output, s.view);
      const box = { width: Math.min(MAX_BOX_EDGE, Math.ceil(rect.width * s.viewport.zoom * s.ratio)), height: Math.min(MAX_BOX_EDGE, Math.ceil(rect.height * s.viewport.zoom * s.ratio)) };
      const keep = (side: Side) => (bitmap: ImageBitmap) => {
        if (generation !== s.generation) return bitmap.close();
        side.detail = { bitmap, rect };
        redraw.current();
      };
      const perOutputPixel = geometry.framing.crop.width / geometry.output.width;
      viewInWorker(subject.original, { framing: geometry.framing, region: scaledRect(rect, perOutputPixel), box }).then(keep(s.left), () => undefined);
      viewInWorker(output, { framing: null, region: rect, box }).then(keep(s.right), () => undefined);
    }, DETAIL_AFTER_MS);
  };
  useEffect(() => () => clearTimeout(detailTimer.current), []);

  const changeViewport = (next: Viewport) => {
    const s = state.current;
    s.viewport = next;
    const fit = geometry ? fitted(geometry.output, s.view).zoom : next.zoom;
    setZoomLabel(Math.abs(next.zoom - fit) < 1e-6 ? 'Fit' : `${Math.round(next.zoom * s.ratio * 100)}%`);
    redraw.current();
    askForDetail();
  };

  const setDivider = (percent: number) => {
    const value = Math.min(100, Math.max(0, percent));
    if (divider.current) {
      divider.current.value = String(Math.round(value));
      divider.current.setAttribute('aria-valuetext', dividerText(Math.round(value), outputLabel));
    }
    if (rightCanvas.current) rightCanvas.current.style.clipPath = `inset(0 0 0 ${value}%)`;
    if (dividerLine.current) dividerLine.current.style.left = `${value}%`;
  };

  /** Changes the viewport (once there is one): `change` is given it, the output's size, the view's and the pixel ratio. */
  const moveView = (change: (viewport: Viewport, image: Size, view: Size, ratio: number) => Viewport) => {
    const s = state.current;
    if (geometry && s.viewport) changeViewport(change(s.viewport, geometry.output, s.view, s.ratio));
  };

  const zoomBy = (factor: number) => moveView((viewport, image, view, ratio) => zoomAbout(viewport, factor, { x: view.width / 2, y: view.height / 2 }, image, view, ratio));

  // Pointers: one drags the divider (at fit, or on its handle) or pans (zoomed in); two pinch.
  const pointers = useRef(new Map<number, { x: number; y: number }>());
  const gesture = useRef<'divider' | 'pan' | 'pinch' | null>(null);
  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    const s = state.current;
    if (!geometry || !s.viewport) return;
    const box = event.currentTarget.getBoundingClientRect();
    pointers.current.set(event.pointerId, { x: event.clientX - box.left, y: event.clientY - box.top });
    event.currentTarget.setPointerCapture(event.pointerId);
    const atFit = Math.abs(s.viewport.zoom - fitted(geometry.output, s.view).zoom) < 1e-6;
    const onHandle = (event.target as HTMLElement).closest('.compare__divider') !== null;
    gesture.current = pointers.current.size >= 2 ? 'pinch' : onHandle || atFit ? 'divider' : 'pan';
    if (gesture.current === 'divider') setDivider(((event.clientX - box.left) / box.width) * 100);
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    const before = pointers.current.get(event.pointerId);
    if (!before) return;
    const box = event.currentTarget.getBoundingClientRect();
    const now = { x: event.clientX - box.left, y: event.clientY - box.top };
    if (gesture.current === 'divider') setDivider((now.x / box.width) * 100);
    else if (gesture.current === 'pan') moveView((viewport, image, view, ratio) => panBy(viewport, now.x - before.x, now.y - before.y, image, view, ratio));
    else if (gesture.current === 'pinch' && pointers.current.size === 2) {
      const other = [...pointers.current].find(([id]) => id !== event.pointerId)![1];
      const spread = Math.hypot(before.x - other.x, before.y - other.y);
      const spreadNow = Math.hypot(now.x - other.x, now.y - other.y);
      const middle = { x: (now.x + other.x) / 2, y: (now.y + other.y) / 2 };
      if (spread > 0) moveView((viewport, image, view, ratio) => zoomAbout(viewport, spreadNow / spread, middle, image, view, ratio));
    }
    pointers.current.set(event.pointerId, now);
  };
  const onPointerUp = (event: PointerEvent<HTMLDivElement>) => {
    pointers.current.delete(event.pointerId);
    if (pointers.current.size === 0) gesture.current = null;
  };
  const onWheel = (event: WheelEvent<HTMLDivElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    const point = { x: event.clientX - box.left, y: event.clientY - box.top };
    moveView((viewport, image, view, ratio) => zoomAbout(viewport, Math.exp(-event.deltaY * 0.002), point, image, view, ratio));
  };

  const sizeText = (size: Size | undefined, bytes: number | null) => [size ? `${size.width} × ${size.height}` : null, bytes === null ? null : formatBytes(bytes)].filter(Boolean).join(' · ');

  return (
    <dialog ref={dialog} className="compare" aria-labelledby={titleId} onClose={onClose}>
      <div className="compare__head">
        <h2 id={titleId} className="compare__title">
          {subject.heading}
        </h2>
        <button type="button" className="button button--ghost button--small" onClick={() => dialog.current?.close()}>
          Close
        </button>
      </div>
      <div className="compare__sides">
        <p data-testid="compare-original">
          <strong>Original</strong> {sizeText(geometry?.original, subject.original.size)}
        </p>
        <p data-testid="compare-output">
          <strong>{outputLabel}</strong> {output ? sizeText(geometry?.output, output.size) : 'Converting with these settings…'}
        </p>
      </div>
      <div className="compare__view" ref={view} onPointerDown={onPointerDown} onPointerMove={onPointerMove} onPointerUp={onPointerUp} onPointerCancel={onPointerUp} onWheel={onWheel}>
        <canvas className="compare__canvas" ref={leftCanvas} role="img" aria-label={`${subject.name}, original`} />
        <canvas className="compare__canvas" ref={rightCanvas} role="img" aria-label={`${subject.name}, ${outputLabel}`} style={{ clipPath: 'inset(0 0 0 50%)' }} />
        <div className="compare__divider" ref={dividerLine} aria-hidden="true" />
        {problem ? (
          <p className="compare__problem" role="alert">
            {problem}
          </p>
        ) : null}
      </div>
      <div className="compare__controls">
        <label className="compare__slider">
          <span>Divider</span>
          <input
            ref={divider}
            type="range"
            min={0}
            max={100}
            step={1}
            defaultValue={50}
            aria-valuetext={dividerText(50, outputLabel)}
            onChange={(event) => setDivider(Number(event.currentTarget.value))}
          />
        </label>
        <div className="compare__zoom" role="group" aria-label="Zoom">
          <button type="button" className="button button--ghost button--small" onClick={() => zoomBy(1 / ZOOM_STEP)} aria-label="Zoom out">
            −
          </button>
          <span className="compare__zoom-level" aria-live="polite" data-testid="zoom-level">
            {zoomLabel}
          </span>
          <button type="button" className="button button--ghost button--small" onClick={() => zoomBy(ZOOM_STEP)} aria-label="Zoom in">
            +
          </button>
          <button type="button" className="button button--ghost button--small" onClick={() => moveView((_, image, view) => fitted(image, view))}>
            Fit
          </button>
          <button
            type="button"
            className="button button--ghost button--small"
            onClick={() => moveView((viewport, image, view, ratio) => clampViewport({ zoom: actualSizeZoom(image, view, ratio), centre: viewport.centre }, image, view, ratio))}
          >
            1:1
          </button>
        </div>
      </div>
    </dialog>
  );
}

const dividerText = (percent: number, output: string) => `${percent}%: original on the left, ${output} on the right`;
