export * from './completion';
export * from './examples';
export * from './query';
export * from './recent';
