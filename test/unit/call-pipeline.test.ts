import type { CallerRegistry } from '../../src/access/caller-registry';
import { grantsOf } from '../../src/access/operation-groups';
import { SCHOOL_SCOPE } from '../../src/access/scope';
import type { AuditTrail } from '../../src/audit/audit-trail';
import type { Operation } from '../../src/contract/catalog';
import { setLogLevel } from '../../src/lib/log';
import { RuleViolation } from '../../src/lib/rule-violation';
import type { OperationContext, OperationServices } from '../../src/operations/operation';
import { OPERATIONS, type Operations } from '../../src/operations/registry';
import type { Binding } from '../../src/pipeline/binding';
import type { Call } from '../../src/pipeline/call';
import { CallError, ClientGone } from '../../src/pipeline/call-error';
import { CallPipeline } from '../../src/pipeline/call-pipeline';
import type { CallRequest } from '../../src/pipeline/call-request';
import { HANG_UP, reply } from '../../src/pipeline/reply';
import type { BodyRead } from '../../src/wire/read-body';

beforeAll(() => setLogLevel('silent'));

/** A pipeline whose one operation, GenerateReport with its policy row, runs `run`; store and services unused. */
function pipelineRunning(
  run: (parameters: unknown, context: OperationContext) => unknown,
  recognition: unknown = undefined,
): CallPipeline {
  const operations = { GenerateReport: { ...OPERATIONS.GenerateReport, handle: run } } as unknown as Operations;
  const services = { clock: () => new Date('2026-11-22T09:00:00Z') } as unknown as OperationServices;
  const settings = { maxBodyBytes: 1024, publicBaseUrl: undefined, port: 8080 };
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
      return { ok: true, call, state: undefined };
    },
    writeResult: (_state, _call, result) => reply(200, 'text/plain', String(result)),
    writeError: (_state, error: CallError) => reply(500, 'text/plain', `${error.kind}: ${error.message}`),
  };
}

/** A request as the server hands it to the pipeline: plain values, and a body read as `body` says. */
function request(
  headers: Record<string, string>,
  body: BodyRead = { kind: 'body', body: Buffer.alloc(0) },
): CallRequest {
  return { method: 'POST', target: '/x', address: '127.0.0.1', headers, readBody: async () => body };
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
      decode: (exchange) => ({
        ok: true,
        call: { ...call, caller: exchange.caller('json', credentials) },
        state: undefined,
      }),
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

describe('a request handed over as plain values', () => {
  /** A binding whose call carries the body as its class, from the caller the exchange describes. */
  const bodyBinding: Binding<undefined> = {
    ...textBinding(),
    decode: async (exchange) => {
      const studentClass = (await exchange.body()).toString();
      const parameters = { ...call.parameters, studentClass };
      return { ok: true, call: { ...call, parameters, caller: exchange.caller('json') }, state: undefined };
    },
  };

  test("the caller's address is the one handed over, and the body is read within the pipeline's limit", async () => {
    const limits: number[] = [];
    const handed: CallRequest = {
      ...request({}),
      address: '127.0.0.9',
      readBody: async (limit) => {
        limits.push(limit);
        return { kind: 'body', body: Buffer.from('A1') };
      },
    };
    const pipeline = pipelineRunning(
      (parameters, context) => `${context.call.address} ${(parameters as { studentClass: string }).studentClass}`,
    );
    const served = await pipeline.serve(pipeline.exchange(handed, undefined), bodyBinding, undefined);
    expect(served).toMatchObject({ status: 200, body: '127.0.0.9 A1', closeConnection: false });
    expect(limits).toEqual([1024]);
  });

  test('a body over the limit is refused, and the connection closed: its rest was not read', async () => {
    const pipeline = pipelineRunning(() => 'report');
    const tooLarge = request({ 'content-length': '2000' }, { kind: 'too-large' });
    const served = await pipeline.serve(pipeline.exchange(tooLarge, undefined), bodyBinding, undefined);
    expect(served).toMatchObject({ status: 500, closeConnection: true, challenge: false });
    expect(served !== HANG_UP && String(served.body)).toBe(
      'too-large: Maximum request length exceeded: the body is larger than 1024 bytes.',
    );
  });
});

describe("the state a binding's decode returns", () => {
  /** A binding whose state says what it learnt by decoding: each reply is written with its state. */
  function learningBinding(outcome: 'call' | 'failure'): Binding<string> {
    return {
      nameOf: () => 'json',
      decode: (_exchange, given) =>
        outcome === 'call'
          ? { ok: true, call, state: `${given}, then learnt` }
          : { ok: false, error: new CallError('client', 'bad'), state: `${given}, then learnt` },
      writeResult: (state, _call, result) => reply(200, 'text/plain', `${state}: ${String(result)}`),
      writeError: (state, error) => reply(500, 'text/plain', `${state}: ${error.kind}`),
    };
  }

  test('a failure decode returns is answered in the state it returned', async () => {
    const pipeline = pipelineRunning(() => 'report');
    const served = await pipeline.serve(pipeline.exchange(request({}), undefined), learningBinding('failure'), 'given');
    expect(served).toMatchObject({ status: 500, body: 'given, then learnt: client' });
  });

  test('the result, and a refusal after the body, are answered in the state decode returned', async () => {
    const answered = pipelineRunning(() => 'report');
    const served = await answered.serve(answered.exchange(request({}), undefined), learningBinding('call'), 'given');
    expect(served).toMatchObject({ status: 200, body: 'given, then learnt: report' });
    const portal = { name: 'portal', scope: SCHOOL_SCOPE, operations: grantsOf(['HelloWorld']) };
    const refusing = pipelineRunning(() => 'report', { kind: 'identified', identity: portal });
    const refused = await refusing.serve(refusing.exchange(request({}), undefined), learningBinding('call'), 'given');
    expect(refused).toMatchObject({ status: 500, body: 'given, then learnt: forbidden' });
  });
});
