import type { CallerRegistry } from '../../src/access/caller-registry';
import { grantedOperations } from '../../src/access/operation-groups';
import { SCHOOL_SCOPE } from '../../src/access/scope';
import type { AuditTrail } from '../../src/audit/audit-trail';
import type { Operation } from '../../src/contract/catalog';
import { parseNetworks } from '../../src/lib/networks';
import { setLogLevel } from '../../src/lib/log';
import { RuleViolation } from '../../src/lib/rule-violation';
import type { OperationContext, OperationServices } from '../../src/operations/operation';
import type { Handlers } from '../../src/operations/registry';
import type { Call } from '../../src/pipeline/call';
import { CallPipeline } from '../../src/pipeline/call-pipeline';

beforeAll(() => setLogLevel('silent'));

/** A pipeline whose one handler, for GenerateReport, runs `run`; the store and services are never touched. */
function pipelineRunning(run: (parameters: unknown, context: OperationContext) => unknown): CallPipeline {
  const handlers = { GenerateReport: { name: 'GenerateReport', handle: run } } as unknown as Handlers;
  const services = { clock: () => new Date('2026-11-22T09:00:00Z') } as unknown as OperationServices;
  const settings = { maxBodyBytes: 1024, publicBaseUrl: undefined, port: 8080, trustedProxies: parseNetworks('') };
  // Every caller is the local one here; recognising callers has tests of its own.
  const local = { name: 'local', scope: SCHOOL_SCOPE, operations: grantedOperations(['all']) };
  const callers = { recognise: () => ({ kind: 'identified', identity: local }) } as unknown as CallerRegistry;
  const audit = { record: () => undefined } as unknown as AuditTrail;
  return new CallPipeline({ handlers, services, settings, callers, audit });
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
