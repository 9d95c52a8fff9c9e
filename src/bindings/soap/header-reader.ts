import type { ElementTag } from './element-tag';

/**
 * What the request reader keeps of a SOAP Header: each header block's name and mustUnderstand,
 * and the fields of a WS-Security UsernameToken, the one header the service processes.
 */

export const WSSE_NAMESPACE = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd';
const WSU_NAMESPACE = 'http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-utility-1.0.xsd';
const PASSWORD_DIGEST = '#PasswordDigest';

export interface HeaderBlock {
  readonly localName: string;
  readonly namespace: string;
  /** The mustUnderstand attribute's value, as written; undefined when absent. */
  readonly mustUnderstand: string | undefined;
}

export interface UsernameTokenFields {
  username: string | undefined;
  password: string | undefined;
  /** Whether the Password's Type is PasswordDigest (else PasswordText). */
  digest: boolean;
  nonce: string | undefined;
  created: string | undefined;
}

export interface SoapHeader {
  readonly blocks: HeaderBlock[];
  usernameToken: UsernameTokenFields | undefined;
}

type TokenField = 'username' | 'password' | 'nonce' | 'created';

/** ASMX reads mustUnderstand as a boolean written "1" or "true", in either version. */
const MUST_UNDERSTAND = new Set(['1', 'true']);

/**
 * The first header block the caller marked mustUnderstand that the service does not process; the
 * service processes WS-Security alone. ASMX refuses the call for such a block with a
 * MustUnderstand fault rather than ignore it.
 */
export function firstNotUnderstood(header: SoapHeader | undefined): HeaderBlock | undefined {
  return header?.blocks.find(
    (block) =>
      block.mustUnderstand !== undefined &&
      MUST_UNDERSTAND.has(block.mustUnderstand) &&
      !(block.localName === 'Security' && block.namespace === WSSE_NAMESPACE),
  );
}

/** Depths inside the Header: 1 a header block, 2 the UsernameToken, 3 its fields. */
const BLOCK_DEPTH = 1;
const TOKEN_DEPTH = 2;
const FIELD_DEPTH = 3;

function tokenFieldOf(tag: ElementTag): TokenField | undefined {
  if (tag.uri === WSU_NAMESPACE) return tag.local === 'Created' ? 'created' : undefined;
  if (tag.uri !== WSSE_NAMESPACE) return undefined;
  if (tag.local === 'Username') return 'username';
  if (tag.local === 'Password') return 'password';
  return tag.local === 'Nonce' ? 'nonce' : undefined;
}

/** Follows the elements of one Header, told their depth below it. */
export class HeaderReading {
  readonly header: SoapHeader = { blocks: [], usernameToken: undefined };
  private inSecurity = false;
  private inToken = false;
  private field: TokenField | undefined;

  constructor(private readonly envelopeNamespace: string) {}

  openTag(depth: number, tag: ElementTag): void {
    if (depth === BLOCK_DEPTH) {
      const mustUnderstand = Object.values(tag.attributes).find(
        (attribute) => attribute.local === 'mustUnderstand' && attribute.uri === this.envelopeNamespace,
      );
      this.header.blocks.push({ localName: tag.local, namespace: tag.uri, mustUnderstand: mustUnderstand?.value });
      this.inSecurity = tag.local === 'Security' && tag.uri === WSSE_NAMESPACE;
    } else if (
      depth === TOKEN_DEPTH &&
      this.inSecurity &&
      tag.local === 'UsernameToken' &&
      tag.uri === WSSE_NAMESPACE
    ) {
      this.inToken = this.header.usernameToken === undefined;
      if (this.inToken) {
        this.header.usernameToken = {
          username: undefined,
          password: undefined,
          digest: false,
          nonce: undefined,
          created: undefined,
        };
      }
    } else if (depth === FIELD_DEPTH && this.inToken && this.header.usernameToken) {
      this.field = tokenFieldOf(tag);
      if (this.field === undefined) return;
      this.header.usernameToken[this.field] = '';
      if (this.field === 'password') {
        const type = Object.values(tag.attributes).find((attribute) => attribute.local === 'Type');
        this.header.usernameToken.digest = type?.value.endsWith(PASSWORD_DIGEST) ?? false;
      }
    }
  }

  addText(depth: number, chunk: string): void {
    const token = this.header.usernameToken;
    if (depth === FIELD_DEPTH && this.field !== undefined && token) token[this.field] += chunk;
  }

  closeTag(depth: number): void {
    if (depth === FIELD_DEPTH) this.field = undefined;
    else if (depth === TOKEN_DEPTH) this.inToken = false;
    else if (depth === BLOCK_DEPTH) this.inSecurity = false;
  }
}
