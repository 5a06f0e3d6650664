import type VirtualJobList from './VirtualJobList.tsx';

type VirtualJobListComponent = typeof VirtualJobList;

let loaded: VirtualJobListComponent | null = null;
let loading: Promise<VirtualJobListComponent> | null = null;

/**
 * The long queue's list (VirtualJobList.tsx), fetched once: ahead of a batch that will need it (ConverterPage, once
 * the files would make a long queue), or when such a queue first shows. A fetch that fails may be tried again.
 */
export function loadVirtualJobList(): Promise<VirtualJobListComponent> {
  loading ??= import('./VirtualJobList.tsx').then(
    (module) => (loaded = module.default),
    (error: unknown) => {
      loading = null;
      throw error;
    },
  );
  return loading;
}

/**
 * The list, if it has been fetched: rendered at once, in the frame the queue first shows. React.lazy suspended on
 * its first render even with the module at hand, and the queue's first rows stood in for it, to be laid out again
 * as the list's a few frames later.
 */
export const loadedVirtualJobList = (): VirtualJobListComponent | null => loaded;
