/**
 * Saved searches, pure (no VS Code): the model (the search kinds and specs of
 * `core/search/kinds.ts`, re-exported), its validation (`spec.ts`), the
 * versioned file format a team can commit to a repository (`file.ts`) and list operations
 * (`list.ts`).
 *
 * Damaged input never loses data: entries that do not validate are returned beside the
 * good ones (with a per-entry reason) so the caller can keep them aside and report them.
 */
export * from '../search/kinds';
export * from './spec';
export * from './file';
export * from './list';
