/**
 * The names the hunts feature (`.odinq` files and ```odinq fences) is known by before its
 * bundle loads (dist/hunts.js, see lazy.ts); its command ids are in ../commands.ts.
 */
export const HUNT_LANGUAGE = 'odinq';
/** A Markdown document holds hunts when it has a fence like this. */
export const FENCE_RE = /^ {0,3}(`{3,}|~{3,})[ \t]*odinq\b/im;
