/**
 * Why a call was not answered with a result: a kind, and a message for the caller. Each binding
 * maps every kind to its wire shape in one place (its writeError); nothing else writes an error.
 */
export type CallErrorKind =
  /** The body is not in a form the binding reads at all (SOAP: a Content-Type that is no SOAP version). */
  | 'unsupported-media-type'
  /** The body cannot be parsed (malformed XML, bytes not valid in their charset). */
  | 'malformed'
  /** The body is larger than MAX_BODY_BYTES; it was not read. */
  | 'too-large'
  /** The body is compressed (Content-Encoding); it is never inflated. */
  | 'compressed'
  /** SOAP: the root element is not the envelope the request announced; the message is the namespace found. */
  | 'version-mismatch'
  /**
   * No operation answers to the request (unknown SOAPAction, unknown method name); the message says so as ASMX
   * does.
   */
  | 'unknown-operation'
  /** The request was read but is not a valid call (a parameter that does not parse, a missing one). */
  | 'client'
  /** SOAP: a header block marked mustUnderstand that the service does not process. */
  | 'not-understood'
  /** SOAP: a form POSTed to an endpoint, which ASMX reads as a SOAP 1.2 body that is not XML. */
  | 'unprocessable'
  /** The caller was not recognised, and credentials would let it in (HTTP 401 with a Basic challenge). */
  | 'unauthenticated'
  /** The caller may not call this operation (HTTP 403, or a Client fault on SOAP). */
  | 'forbidden'
  /** A rule of the service refused the call (rate limits, codes, unregistered schools). */
  | 'rule'
  /** The service failed; the message is generic and the failure was logged. */
  | 'internal';

export class CallError extends Error {
  constructor(
    readonly kind: CallErrorKind,
    message: string,
    /** The .NET exception type the JSON binding names for this error, where it is not the kind's usual one. */
    readonly exceptionType?: string,
  ) {
    super(message);
  }
}

/** What a caller is told of an internal failure; the details are in the log only. */
export const INTERNAL_REASON = 'The service could not complete the request; the failure has been logged.';

/** The client went away before its request was read: there is no one to answer. */
export class ClientGone extends Error {}
