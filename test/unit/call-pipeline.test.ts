import type { CallerRegistry } from '../../src/access/caller-registry';
import { grantsOf } from '../../src/access/operation-groups';
import { SCHOOL_SCOPE } from '../../src/access/scope';
import type { AuditTrail } from '../../src/audit/audit-trail';
import type { Operation } from '../../src/contract/catalog';
import { parseNetworks } from '../../src/lib/networks';
import { setLogLevel } from '../../src/lib/log';
import { RuleViolation } from '../../src/lib/rule-violation';
import type { OperationContext, OperationServices } from '../../src/operations/operation';
import { OPERATIONS, type Operations } from '../../src/operations/registry';
import type { IncomingMessage } from 'node:http';
import type { Call } from '../../src/pipeline/call';
import { CallError, ClientGone } from '../../src/pipeline/call-error';
import { type Binding, CallPipeline } from '../../src/pipeline/call-pipeline';
import { HANG_UP, reply } from '../../src/pipeline/reply';

beforeAll(() => setLogLevel('silent'));

/** A pipeline whose one operation, GenerateReport with its policy row, runs `run`; store and services unused. */
function pipelineRunning(
  run: (parameters: unknown, context: OperationContext) => unknown,
  recognition: unknown = undefined,
): CallPipeline {
  const operations = { GenerateReport: { ...OPERATIONS.GenerateReport, handle: run } } as unknown as Operations;
  const services = { clock: () => new Date('2026-11-22T09:00:00Z') } as unknown as OperationServices;
  const settings = { maxBodyBytes: 1024, publicBaseUrl: undefined, port: 8080, trustedProxies: parseNetworks('') };
  // Every caller is the local one here; recognising callers has tests of its own.
  const local = { name: 'local', scope: SCHOOL_SCOPE, operations: grantsOf(['all']) };
  const recognised = recognition ?? { kind: 'identified', identity: local };
  const callers = { recognise: () => recognised } as unknown as CallerRegistry;
  const audit = { record: () => undefined } as unknown as AuditTrail;
  return new CallPipeline({ operations, services, settings, callers, audit });
}

const call: Call = {
  operation: { name: 'GenerateReport', results: { documented: undefined, typed: undefined } } as unknown as Operation,
  parameters: { studentId: 7, studentClass: 'A1' },
  caller: {
    binding: 'soap11',
    address: '127.0.0.1',
    requestBaseUrl: 'http://localhost',
    federationCredential: undefined,
    credentials: undefined,
  },
};

describe('invoking an operation through the call pipeline', () => {
  test("passes the decoded parameters and the call's facts to the handler", async () => {
    const invocation = await pipelineRunning((parameters, context) =>
      JSON.stringify({ parameters, address: context.call.address, today: context.today }),
    ).invoke(call);
    expect(invocation).toEqual({
      ok: true,
      result: '{"parameters":{"studentId":7,"studentClass":"A1"},"address":"127.0.0.1","today":"2026-11-22"}',
    });
  });

  test('a rule error keeps its reason', async () => {
    const invocation = await pipelineRunning(() => {
      throw new RuleViolation('Too many requests for this phone.');
    }).invoke(call);
    expect(invocation.ok).toBe(false);
    expect(!invocation.ok && [invocation.error.kind, invocation.error.message]).toEqual([
      'rule',
      'Too many requests for this phone.',
    ]);
  });

  test('an unexpected failure becomes a generic internal error with no stack, SQL or path', async () => {
    const invocation = await pipelineRunning(async () => {
      throw new Error('SELECT * FROM students failed at /work/main/src/store/db.ts:12');
    }).invoke(call);
    expect(invocation.ok).toBe(false);
    if (invocation.ok) return;
    expect(invocation.error.kind).toBe('internal');
    expect(invocation.error.message).toBe('The service could not complete the request; the failure has been logged.');
  });
});

/** A binding that decodes every request into `call` (or throws `failure`) and writes plain text. */
function textBinding(failure?: Error): Binding<undefined> {
  return {
    nameOf: () => 'json',
    operationBeforeBody: () => 'GenerateReport',
    decode: () => {
      if (failure) throw failure;
      return call;
    },
    writeResult: (_state, _call, result) => reply(200, 'text/plain', String(result)),
    writeError: (_state, error: CallError) => reply(500, 'text/plain', `${error.kind}: ${error.message}`),
  };
}

/** A request as the pipeline reads it: no socket to write to, only what came in. */
function request(headers: Record<string, string>): IncomingMessage {
  return { method: 'POST', url: '/x', headers, socket: { remoteAddress: '127.0.0.1' } } as unknown as IncomingMessage;
}

describe('serving a request: a reply for the server to write', () => {
  test("the result comes back as the binding's reply, with nothing for the connection", async () => {
    const pipeline = pipelineRunning(() => 'report');
    const served = await pipeline.serve(pipeline.exchange(request({}), undefined), textBinding(), undefined);
    expect(served).toEqual({
      status: 200,
      contentType: 'text/plain',
      body: 'report',
      headers: undefined,
      closeConnection: false,
      challenge: false,
    });
  });

  test('credentials refused before the body is read: the server is to challenge and close', async () => {
    const pipeline = pipelineRunning(() => 'report', { kind: 'refused', reason: 'unknown caller' });
    const refused = request({
      authorization: `Basic ${Buffer.from('a:b').toString('base64')}`,
      'content-length': '10',
    });
    const served = await pipeline.serve(pipeline.exchange(refused, undefined), textBinding(), undefined);
    expect(served).not.toBe(HANG_UP);
    if (served === HANG_UP) return;
    expect([served.status, served.challenge, served.closeConnection]).toEqual([500, true, true]);
    expect(String(served.body)).toMatch(/^unauthenticated: Access denied/);
  });

  test('a rule refused after the body was read neither challenges nor closes', async () => {
    const pipeline = pipelineRunning(() => 'report');
    const binding = textBinding(new CallError('client', 'bad'));
    const served = await pipeline.serve(pipeline.exchange(request({}), undefined), binding, undefined);
    expect(served).toMatchObject({ body: 'client: bad', challenge: false, closeConnection: false });
  });

  test('a client that went away gets no reply: the server drops the connection', async () => {
    const pipeline = pipelineRunning(() => 'report');
    const served = await pipeline.serve(
      pipeline.exchange(request({}), undefined),
      textBinding(new ClientGone()),
      undefined,
    );
    expect(served).toBe(HANG_UP);
  });
});

describe('recognising the caller once a call', () => {
  /** A pipeline counting how often it recognises a caller, serving a binding that knows the operation from the path. */
  function countingPipeline(): { pipeline: CallPipeline; recognitions: () => number } {
    let recognitions = 0;
    const pipeline = pipelineRunning(() => 'report');
    const callers = (pipeline as unknown as { parts: { callers: CallerRegistry } }).parts.callers;
    const recognise = callers.recognise.bind(callers);
    callers.recognise = (...args: Parameters<CallerRegistry['recognise']>) => {
      recognitions += 1;
      return recognise(...args);
    };
    return { pipeline, recognitions: () => recognitions };
  }

  function bindingWithCaller(credentials?: Call['caller']['credentials']): Binding<undefined> {
    return {
      ...textBinding(),
      decode: (exchange) => ({ ...call, caller: exchange.caller('json', credentials) }),
    };
  }

  test('a caller recognised before the body is not recognised again after it', async () => {
    const { pipeline, recognitions } = countingPipeline();
    const served = await pipeline.serve(pipeline.exchange(request({}), undefined), bindingWithCaller(), undefined);
    expect(served).toMatchObject({ status: 200, body: 'report' });
    expect(recognitions()).toBe(1);
  });

  test('credentials found in the body are recognised in their turn', async () => {
    const { pipeline, recognitions } = countingPipeline();
    const token = { kind: 'bearer', secret: 'from the body' } as const;
    const served = await pipeline.serve(pipeline.exchange(request({}), undefined), bindingWithCaller(token), undefined);
    expect(served).toMatchObject({ status: 200, body: 'report' });
    expect(recognitions()).toBe(2);
  });
});
