import { invokeOperation } from '../../src/operations/invoke';
import { defineOperation, OperationError, type OperationContext } from '../../src/operations/operation';
import { setLogLevel } from '../../src/log';

// The handlers here touch no store; a context without one would not type-check, so cast.
const context = { callerAddress: '127.0.0.1', today: '2026-11-22' } as unknown as OperationContext;
beforeAll(() => setLogLevel('silent'));

describe('invoking an operation', () => {
  test('passes decoded, typed parameters to the runner', async () => {
    const echo = defineOperation({
      name: 'Echo',
      decode: (raw) => ({ id: raw.int('studentId'), name: raw.string('studentClass'), absent: raw.string('missing') }),
      run: (parameters) => JSON.stringify(parameters),
    });
    const invocation = await invokeOperation(
      echo,
      new Map<string, string | number | null>([
        ['studentId', 7],
        ['studentClass', 'A1'],
      ]),
      context,
    );
    expect(invocation).toEqual({ ok: true, result: '{"id":7,"name":"A1","absent":null}' });
  });

  test('a rule error keeps its reason', async () => {
    const limited = defineOperation({
      name: 'Limited',
      decode: () => ({}),
      run: () => {
        throw new OperationError('rule', 'Too many requests for this phone.');
      },
    });
    const invocation = await invokeOperation(limited, new Map(), context);
    expect(invocation.ok).toBe(false);
    expect(!invocation.ok && [invocation.error.kind, invocation.error.message]).toEqual([
      'rule',
      'Too many requests for this phone.',
    ]);
  });

  test('an unexpected failure becomes a generic internal error with no stack, SQL or path', async () => {
    const broken = defineOperation({
      name: 'Broken',
      decode: () => ({}),
      run: async () => {
        throw new Error('SELECT * FROM students failed at /work/main/src/store/db.ts:12');
      },
    });
    const invocation = await invokeOperation(broken, new Map(), context);
    expect(invocation.ok).toBe(false);
    if (invocation.ok) return;
    expect(invocation.error.kind).toBe('internal');
    expect(invocation.error.message).toBe('The service could not complete the request; the failure has been logged.');
  });
});
