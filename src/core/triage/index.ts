// Bulk triage of the indicators of a log or a folder: scan, preview, enrichment plan with
// batching, verdicts, partial accounting, reports. Pure: no `vscode` import.
export * from './model';
export * from './scan';
export * from './triage';
export * from './verdict';
export * from './reportRows';
export * from './reports';
export * from './exchange';
export * from './source';
export * from './view';
export * from './infra';
export * from './credits';
export * from './counts';
