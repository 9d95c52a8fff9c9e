import type { Operation } from '../../contract/catalog';
import type { Profile } from '../../contract/profile';
import { childMap } from '../../lib/child-map';
import { COMPACT, writeTypedElement } from '../../wire/typed-xml';
import { KeptUtf8Writer } from '../../wire/kept-writer';
import { responseEnvelope, responseEnvelopeAround } from './envelope-writer';
import type { SoapVersion } from './soap-version';

/** The bytes around an operation's result, which depend only on the operation and the version. */
interface ResultFrame {
  readonly before: Buffer;
  readonly after: Buffer;
}

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
  private readonly writer = new KeptUtf8Writer();

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
      };
      framesOfVersion.set(operation, frame);
    }
    const out = this.writer.start();
    out.raw(frame.before);
    writeTypedElement(out, resultElement.name, resultElement.type, result, false, COMPACT, 0);
    out.raw(frame.after);
    return this.writer.finish();
  }
}
