/** The compare dialog's module: loaded when a comparison first opens, or ahead of it once there is something to compare. */
export const loadCompareDialog = () => import('./CompareDialog.tsx');
