/**
 * A request the service refuses by one of its rules (a rate limit, a code that is not digits, a
 * school that is not registered). Its message is written for the caller: it reaches the wire as
 * the reason of a Server fault, or the text of an HTTP 500, unchanged. Anything else thrown while
 * serving a call is a failure of the service and reaches the caller only as a generic reason.
 */
export class RuleViolation extends Error {}

/** A rule violation that is a rate limit reached: counted apart, as a refusal, in the service's figures. */
export class RateLimitReached extends RuleViolation {}
