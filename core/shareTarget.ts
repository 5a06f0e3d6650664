/**
 * Images shared to the installed app from another app's Share sheet (the manifest's share_target): the service
 * worker receives the POST, keeps the files in a cache of their own and sends the page to `landing`, which takes them.
 */
export const SHARE_TARGET = {
  /** Where the share sheet posts (multipart/form-data). */
  action: '/share-target',
  /** The form field holding the files. */
  field: 'images',
  /** The Cache Storage cache the worker keeps them in until the page takes them. */
  cache: 'pixel-converter-shared-files',
  /** Where the worker sends the page afterwards: the converter, told to look in that cache. */
  landing: '/?shared',
  /** Headers on each kept file's entry that carry what a Response does not: its name and when it was modified. */
  nameHeader: 'x-file-name',
  modifiedHeader: 'x-file-last-modified',
} as const;
