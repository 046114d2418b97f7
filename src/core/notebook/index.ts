export * from './execute';
export * from './format';
export * from './placeholders';
export * from './record';
export * from './rows';
export * from './run';
export * from './session';
export * from './markdown';
