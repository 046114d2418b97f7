/**
 * The search catalogue, pure (no VS Code): the kinds and what they are to a person
 * (`kinds.ts`), what each asks the API, its cache kind, gate targets and answer
 * (`catalogue.ts`), and the one call every search goes through (`run.ts`).
 */
export * from './kinds';
export * from './catalogue';
export * from './run';
