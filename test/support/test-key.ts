/**
 * The key every test service and test store holds unless a test names its own: the nodes of one
 * store must share its key (the store refuses another), as a deployment's nodes do.
 */
export const TEST_OUTBOX_KEY = '5a'.repeat(32);
