/** The query language of the emulator's search endpoints: `parse.ts` (grammar), `evaluate.ts`, `aggregate.ts`. */
export * from './parse';
export * from './evaluate';
export * from './aggregate';
