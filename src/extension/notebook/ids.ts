/** The notebook type of `.odinnb` files (package.json `notebooks`), for every part of the feature. */
export const NOTEBOOK_TYPE = 'odin-notebook';
/** Cell metadata keys the serializer keeps (the summary line; never rows). */
export const SUMMARY_KEY = 'summary';
