export * from './diagnostics';
export * from './editing';
export * from './file';
export * from './markdown';
export * from './snapshot';
export * from './spec';
