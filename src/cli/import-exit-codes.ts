/**
 * Exit codes of an import (and a sync): 0 written (or, dry, would be) whole; 1 written with rows
 * left out; 2 nothing written.
 */
export const EXIT_DONE = 0;
export const EXIT_ROWS_SKIPPED = 1;
export const EXIT_NOTHING_WRITTEN = 2;
