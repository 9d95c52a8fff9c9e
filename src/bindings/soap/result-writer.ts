import type { Operation } from '../../contract/catalog';
import type { Profile } from '../../contract/profile';
import { childMap } from '../../lib/child-map';
import { COMPACT, writeTypedElement } from '../../wire/typed-xml';
import { Utf8Writer } from '../../wire/utf8-writer';
import { responseEnvelope, responseEnvelopeAround } from './envelope-writer';
import type { SoapVersion } from './soap-version';

/** The bytes around an operation's result, which depend only on the operation and the version. */
interface ResultFrame {
  readonly before: Buffer;
  readonly after: Buffer;
  /** The size of the last response: a good guess at the next. */
  lastBytes: number;
}

/** The largest buffer a response starts with; a larger result (a report card) grows it. */
const MAX_SIZE_HINT = 1024 * 1024;

/**
 * Writes successful SOAP responses. Responses that never change (empty results) are built once
 * per operation and version, and so are the bytes around a result; the result itself is written
 * straight into UTF-8 bytes by walking its WSDL type.
 */
export class SoapResultWriter {
  /**
   * By version, then by operation: both are the catalog's own objects, so a call finds its bytes
   * by two lookups without making a key of its own (a joined key was a new string every call).
   */
  private readonly fixedResponses = new Map<SoapVersion, Map<Operation, Buffer>>();
  private readonly resultFrames = new Map<SoapVersion, Map<Operation, ResultFrame>>();

  constructor(
    private readonly namespace: string,
    private readonly profile: Profile,
  ) {}

  responseFor(operation: Operation, version: SoapVersion, result: unknown): Buffer {
    const resultElement = operation.results[this.profile];
    if (resultElement === undefined || result === undefined) {
      const ofVersion = childMap(this.fixedResponses, version);
      let fixed = ofVersion.get(operation);
      if (!fixed) {
        fixed = Buffer.from(responseEnvelope(version, `<${operation.name}Response xmlns="${this.namespace}" />`));
        ofVersion.set(operation, fixed);
      }
      return fixed;
    }
    const framesOfVersion = childMap(this.resultFrames, version);
    let frame = framesOfVersion.get(operation);
    if (!frame) {
      const around = responseEnvelopeAround(version);
      frame = {
        before: Buffer.from(`${around.before}<${operation.name}Response xmlns="${this.namespace}">`),
        after: Buffer.from(`</${operation.name}Response>${around.after}`),
        lastBytes: 0,
      };
      framesOfVersion.set(operation, frame);
    }
    // Sized from the operation's last response, so that a large result is written without the
    // buffer growing and being copied on the way.
    const out = new Utf8Writer(Math.min(MAX_SIZE_HINT, 1024 + frame.lastBytes + (frame.lastBytes >> 3)));
    out.raw(frame.before);
    writeTypedElement(out, resultElement.name, resultElement.type, result, false, COMPACT, 0);
    out.raw(frame.after);
    frame.lastBytes = out.length;
    return out.toBuffer();
  }
}
