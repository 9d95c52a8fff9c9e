/** A command used wrongly or against a store it cannot act on: its message is all the operator needs. */
export class UsageError extends Error {}
