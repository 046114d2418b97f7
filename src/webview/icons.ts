/**
 * The codicons the pages draw. The build ships only these glyphs (esbuild.mjs subsets
 * `@vscode/codicons` to this list: about 3 KB instead of 126 KB of font and 34 KB of CSS),
 * so `icon()` and `button()` take an `IconName`: a name missing here fails the type check
 * instead of drawing an empty box.
 */
export const ICONS = [
  'arrow-down',
  'arrow-right',
  'arrow-up',
  'book',
  'checklist',
  'chevron-down',
  'chevron-right',
  'circle-filled',
  'copy',
  'diff',
  'error',
  'file-media',
  'filter',
  'fold-down',
  'json',
  'go-to-file',
  'link-external',
  'loading',
  'markdown',
  'person',
  'refresh',
  'save',
  'search',
  'server',
  'table',
  'unfold',
  'warning',
] as const;

export type IconName = (typeof ICONS)[number];
