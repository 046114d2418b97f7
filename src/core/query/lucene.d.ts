// The parts of the `lucene` package (PEG.js parser, no bundled types) that core/query/parser.ts uses.
declare module 'lucene' {
  export interface Location {
    start: { offset: number; line: number; column: number };
    end: { offset: number; line: number; column: number };
  }
  export interface Node {
    field?: string;
    fieldLocation?: Location | null;
    term?: string;
    termLocation?: Location | null;
    quoted?: boolean;
    regex?: boolean;
    similarity?: number | null;
    proximity?: number | null;
    term_min?: string;
    term_max?: string;
    left?: Node;
    right?: Node;
    operator?: string;
    start?: string;
    parenthesized?: boolean;
  }
  export interface SyntaxError extends Error {
    location?: Location;
    found?: string | null;
  }
  export function parse(query: string): Node;
}
