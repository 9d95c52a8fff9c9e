/**
 * Why a sync stopped. Its message is for the operator's eyes (the command's output, the log, the
 * status page): it names the provider's answer or the fault, never the client secret or a token.
 */
export class SyncFailure extends Error {}
