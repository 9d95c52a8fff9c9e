/** A school's entry or setting that fails a check: the message names the part and what is allowed. */
export class SchoolEntryError extends Error {}
