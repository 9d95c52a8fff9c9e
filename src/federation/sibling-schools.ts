/**
 * A call forwarded to another school: the JSON binding's path (/X.asmx/Op), its headers and body,
 * the same whether it goes over HTTP to a partner's instance or to a school of this deployment.
 */
export interface ForwardedCall {
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** What a school answered a forwarded call with: the status and the body, as HTTP would carry them. */
export interface ForwardedAnswer {
  readonly status: number;
  readonly body: string;
}

/** A school of this deployment, which a call reaches without leaving the process. */
export interface SiblingSchool {
  /** Its address, as its own calls name it: the deployment's address and the school's path. */
  readonly baseUrl: string;
  /** Runs the call at the school through its own call pipeline, as the call arriving over HTTP would run. */
  call(forwarded: ForwardedCall): Promise<ForwardedAnswer>;
}

/** The schools of this deployment, as the school a call reached sees them. */
export interface SiblingSchools {
  /**
   * The school at `address` (a normalised base URL): this deployment's address and a school's
   * path, or a school's own host; undefined for any other address. `requestBaseUrl` is the address
   * the call reached, from which the deployment's is known when PUBLIC_BASE_URL does not say it.
   */
  find(address: string, requestBaseUrl: string): SiblingSchool | undefined;
}
