import { useEffect, useId, useLayoutEffect, useRef, useState, type PointerEvent, type WheelEvent } from 'react';
import type { ConversionSettings, Framing, OutputLook } from '../../../core/contract.ts';
import { LOOK_VERDICT_TEXT, lookDetail, lookVerdict } from '../../../core/look.ts';
import { FORMATS } from '../../../core/formats.ts';
import type { Rect, Size } from '../../../core/geometry.ts';
import { shownSize } from '../../../core/plan.ts';
import { planFor, viewInWorker } from '../../conversion/bridge.ts';
import { formatBytes } from '../../lib/formatBytes.ts';
import { actualSizeZoom, clampViewport, fitted, panBy, scaledRect, visibleRect, zoomAbout, type Viewport } from './viewport.ts';
import './compare.css';

/** What the dialog compares: a source and its output (a finished job's, or a preview's while it converts). */
export interface CompareSubject {
  /** The dialog's title: "Compare photo.jpg", "Preview photo.jpg". */
  heading: string;
  name: string;
  original: Blob;
  /** The output, or a conversion that will give it (a preview of the current settings). */
  output: Blob | Promise<Blob>;
  /** How the output looks beside the original (core/look.ts), or the conversion's word on it to come. */
  look: OutputLook | null | Promise<OutputLook | null>;
  settings: ConversionSettings;
}

/**
 * A picture drawn in the worker, shown as it came (a canvas it was transferred into: no drawing on this thread), and
 * the part of the output's pixels it covers.
 */
interface Picture {
  canvas: HTMLCanvasElement;
  rect: Rect;
}

interface Side {
  /** The element the side's pictures are placed in (the output's is clipped at the divider). */
  layer: HTMLDivElement | null;
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

/** A bitmap in a canvas of its own size, transferred (not drawn): the compositor scales and moves it. */
function pictureOf(bitmap: ImageBitmap, rect: Rect): Picture {
  const canvas = document.createElement('canvas');
  canvas.className = 'compare__picture';
  canvas.width = bitmap.width;
  canvas.height = bitmap.height;
  const renderer = canvas.getContext('bitmaprenderer');
  if (renderer) renderer.transferFromImageBitmap(bitmap);
  else {
    canvas.getContext('2d')?.drawImage(bitmap, 0, 0);
    bitmap.close();
  }
  return { canvas, rect };
}

/** Puts a side's pictures where the viewport shows their parts of the image: a transform, which the compositor applies. */
function placeSide(side: Side, viewport: Viewport, view: Size): void {
  for (const picture of [side.fit, side.detail]) {
    if (!picture) continue;
    const { canvas, rect } = picture;
    const x = view.width / 2 + (rect.x - viewport.centre.x) * viewport.zoom;
    const y = view.height / 2 + (rect.y - viewport.centre.y) * viewport.zoom;
    canvas.style.transform = `translate(${x}px, ${y}px) scale(${(rect.width * viewport.zoom) / canvas.width}, ${(rect.height * viewport.zoom) / canvas.height})`;
  }
}

/** Shows a new picture in place of `slot`'s: placed before it is added, so it never shows at its own size first. */
function showPicture(side: Side, slot: 'fit' | 'detail', picture: Picture | null, viewport: Viewport | null, view: Size): void {
  side[slot]?.canvas.remove();
  side[slot] = picture;
  if (!picture || !side.layer) return;
  if (viewport) placeSide({ layer: null, fit: slot === 'fit' ? picture : null, detail: slot === 'detail' ? picture : null }, viewport, view);
  side.layer.append(picture.canvas);
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
  const leftLayer = useRef<HTMLDivElement>(null);
  const rightLayer = useRef<HTMLDivElement>(null);
  const divider = useRef<HTMLInputElement>(null);
  const dividerLine = useRef<HTMLDivElement>(null);
  const [geometry, setGeometry] = useState<Geometry | null>(null);
  const [output, setOutput] = useState<Blob | null>(subject.output instanceof Blob ? subject.output : null);
  const [look, setLook] = useState<OutputLook | null>(subject.look instanceof Promise ? null : subject.look);
  const [problem, setProblem] = useState<string | null>(null);
  const [zoomLabel, setZoomLabel] = useState('Fit');

  // The view's state lives outside React: a drag moves the pictures at the frame rate without a render.
  const state = useRef({
    viewport: null as Viewport | null,
    view: { width: 1, height: 1 } as Size,
    ratio: 1,
    left: { layer: null, fit: null, detail: null } as Side,
    right: { layer: null, fit: null, detail: null } as Side,
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
        const upright = shownSize(plan.source);
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
    // The conversion's failure shows once, above.
    if (subject.look instanceof Promise) subject.look.then((value) => live && setLook(value), () => undefined);
    return () => {
      live = false;
    };
  }, [subject]);

  /** Places both sides' pictures at the next frame. */
  const redraw = useRef(() => {});
  redraw.current = () => {
    const s = state.current;
    if (s.frame) return;
    s.frame = requestAnimationFrame(() => {
      s.frame = 0;
      if (!s.viewport) return;
      placeSide(s.left, s.viewport, s.view);
      placeSide(s.right, s.viewport, s.view);
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
      s.left.layer = leftLayer.current;
      s.right.layer = rightLayer.current;
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
      showPicture(side, 'fit', pictureOf(bitmap, whole), s.viewport, s.view);
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
      for (const side of [s.left, s.right]) {
        showPicture(side, 'fit', null, null, s.view);
        showPicture(side, 'detail', null, null, s.view);
      }
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
      const fitScale = (s.left.fit?.canvas.width ?? 0) / geometry.output.width;
      if (s.viewport.zoom * s.ratio <= fitScale * 1.25) {
        for (const side of [s.left, s.right]) showPicture(side, 'detail', null, null, s.view);
        return;
      }
      const rect = visibleRect(s.viewport, geometry.output, s.view);
      const box = { width: Math.min(MAX_BOX_EDGE, Math.ceil(rect.width * s.viewport.zoom * s.ratio)), height: Math.min(MAX_BOX_EDGE, Math.ceil(rect.height * s.viewport.zoom * s.ratio)) };
      const keep = (side: Side) => (bitmap: ImageBitmap) => {
        if (generation !== s.generation) return bitmap.close();
        showPicture(side, 'detail', pictureOf(bitmap, rect), s.viewport, s.view);
      };
      const perOutputPixel = geometry.framing.crop.width / geometry.output.width;
      viewInWorker(subject.original, { framing: geometry.framing, region: scaledRect(rect, perOutputPixel), box }).then(keep(s.left), () => undefined);
      viewInWorker(output, { framing: null, region: rect, box }).then(keep(s.right), () => undefined);
    }, DETAIL_AFTER_MS);
  };
  useEffect(() => () => clearTimeout(detailTimer.current), []);

  /** Whether a zoom is the fitted one (or there is nothing to fit yet). */
  const isFitZoom = (zoom: number) => !geometry || Math.abs(zoom - fitted(geometry.output, state.current.view).zoom) < 1e-6;

  const changeViewport = (next: Viewport) => {
    const s = state.current;
    s.viewport = next;
    setZoomLabel(isFitZoom(next.zoom) ? 'Fit' : `${Math.round(next.zoom * s.ratio * 100)}%`);
    redraw.current();
    askForDetail();
  };

  const setDivider = (percent: number) => {
    const value = Math.min(100, Math.max(0, percent));
    if (divider.current) {
      divider.current.value = String(Math.round(value));
      divider.current.setAttribute('aria-valuetext', dividerText(Math.round(value), outputLabel));
    }
    if (rightLayer.current) rightLayer.current.style.clipPath = `inset(0 0 0 ${value}%)`;
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
    const onHandle = (event.target as HTMLElement).closest('.compare__divider') !== null;
    gesture.current = pointers.current.size >= 2 ? 'pinch' : onHandle || isFitZoom(s.viewport.zoom) ? 'divider' : 'pan';
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
          {output && look ? (
            <span className="compare__look" data-testid="compare-look">
              {' · '}
              {LOOK_VERDICT_TEXT[lookVerdict(look.score)]} ({lookDetail(look)})
            </span>
          ) : null}
        </p>
      </div>
      <div className="compare__view" ref={view} data-testid="compare-view" onPointerDown={onPointerDown} onPointerMove={onPointerMove} onPointerUp={onPointerUp} onPointerCancel={onPointerUp} onWheel={onWheel}>
        <div className="compare__layer" ref={leftLayer} role="img" aria-label={`${subject.name}, original`} />
        <div className="compare__layer" ref={rightLayer} role="img" aria-label={`${subject.name}, ${outputLabel}`} style={{ clipPath: 'inset(0 0 0 50%)' }} />
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
