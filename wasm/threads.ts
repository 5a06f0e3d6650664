import { deviceMemoryGb, hasRoomForItsCores } from '../core/memory.ts';

/**
 * Whether a codec's threaded build should load: the page is cross-origin isolated (core/isolation.ts; only then can
 * workers share memory) and the device has memory for its cores (core/memory.ts). Elsewhere (a phone, Safari, which
 * does not say how much memory it has, a first visit to a host that sends no isolation headers), the
 * single-threaded build. libavif's and libjxl's loaders ask it.
 */
export const threadedBuildFits = () => globalThis.crossOriginIsolated === true && hasRoomForItsCores(deviceMemoryGb());
