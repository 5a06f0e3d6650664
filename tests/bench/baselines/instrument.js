// Shared by the baseline pages: the same measurements the bench takes on the app.
window.__bench = { convertAt: 0, done: [], longTasks: [], frames: [], events: [], outputs: [] };
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) window.__bench.longTasks.push({ start: e.startTime, duration: e.duration });
}).observe({ type: 'longtask', buffered: true });
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) window.__bench.frames.push({ start: e.startTime, duration: e.duration, blocking: e.blockingDuration });
}).observe({ type: 'long-animation-frame', buffered: true });
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    if (e.interactionId) window.__bench.events.push({ name: e.name, interactionId: e.interactionId, start: e.startTime, duration: e.duration, processingStart: e.processingStart, processingEnd: e.processingEnd });
  }
}).observe({ type: 'event', buffered: true, durationThreshold: 16 });

/** Runs `convert` over the files, `concurrency` at a time, recording when each finishes. */
window.runBatch = async function runBatch(files, concurrency, convert, { inBatches }) {
  window.__bench.convertAt = performance.now();
  const results = new Array(files.length);
  if (inBatches) {
    // The seed's design: batches of three with Promise.all; the next batch waits for the slowest.
    for (let i = 0; i < files.length; i += concurrency) {
      const batch = files.slice(i, i + concurrency);
      const out = await Promise.all(batch.map((file) => convert(file)));
      out.forEach((blob, j) => {
        results[i + j] = blob;
        window.__bench.done.push(performance.now());
      });
    }
  } else {
    let next = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < files.length) {
          const index = next++;
          results[index] = await convert(files[index]);
          window.__bench.done.push(performance.now());
        }
      }),
    );
  }
  window.__bench.outputs = results;
  window.__bench.finishedAt = performance.now();
};

/** An output as base64, read after timing is over. */
window.outputBase64 = async function outputBase64(index) {
  const bytes = new Uint8Array(await window.__bench.outputs[index].arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return { base64: btoa(binary), type: window.__bench.outputs[index].type };
};

/** Wires the page's Convert button to run `convert` over the picked files, three at a time unless the URL says (?concurrency=). */
window.wireConvert = function wireConvert(convert, options) {
  const concurrency = Number(new URLSearchParams(location.search).get('concurrency') || '3');
  document.getElementById('convert').addEventListener('click', () => {
    window.runBatch([...document.getElementById('files').files], concurrency, convert, options);
  });
};
