import { GATE_BUSY, SecretCheckGate } from '../../src/access/secret-check-gate';

/**
 * The gate of slow secret checks on its own, on jest's fake clock: how many run at once, the CPU
 * share they may take over time, the priority lane before the fair one, and the fair lane's turns
 * by address. Each check here is a promise the test settles by advancing the clock.
 */
describe('the secret check gate', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  /** A check that takes `ms` of the fake clock, noting when it started. */
  function check(started: string[], label: string, ms: number) {
    return () => {
      started.push(label);
      return new Promise<string>((resolve) => setTimeout(() => resolve(label), ms));
    };
  }

  test('runs at most inFlight checks at once', async () => {
    const gate = new SecretCheckGate({ inFlight: 2, cpuPercent: 400 }, () => Date.now());
    const started: string[] = [];
    const runs = ['a', 'b', 'c'].map((label, index) =>
      gate.run(check(started, label, 10), { priority: false, address: `10.0.0.${index}` }),
    );
    expect(started).toEqual(['a', 'b']);
    await jest.advanceTimersByTimeAsync(10);
    expect(started).toEqual(['a', 'b', 'c']);
    await jest.advanceTimersByTimeAsync(10);
    expect(await Promise.all(runs)).toEqual(['a', 'b', 'c']);
  });

  test('keeps the checks to their share of a core: the budget spent, the next waits for it to fill', async () => {
    // 25 % of a core: a budget of 250 ms that fills by 250 ms a second. A first check of 300 ms
    // leaves it 50 ms short (250 + 75 filled while it ran - 300), which takes 200 ms to fill.
    const gate = new SecretCheckGate({ inFlight: 1, cpuPercent: 25 }, () => Date.now());
    const started: string[] = [];
    const first = gate.run(check(started, 'first', 300), { priority: false, address: '10.0.0.1' });
    const second = gate.run(check(started, 'second', 10), { priority: false, address: '10.0.0.2' });
    await jest.advanceTimersByTimeAsync(300);
    expect(await first).toBe('first');
    await jest.advanceTimersByTimeAsync(190);
    expect(started).toEqual(['first']);
    await jest.advanceTimersByTimeAsync(20);
    expect(started).toEqual(['first', 'second']);
    await jest.advanceTimersByTimeAsync(10);
    expect(await second).toBe('second');
    expect(gate.spent).toEqual({ checks: 2, busy: 0, cpuMs: 310 });
  });

  test('a check in the priority lane needs a free slot, not the budget, which it spends all the same', async () => {
    const gate = new SecretCheckGate({ inFlight: 1, cpuPercent: 25 }, () => Date.now());
    const started: string[] = [];
    const first = gate.run(check(started, 'first', 300), { priority: false, address: '10.0.0.1' });
    const wrong = gate.run(check(started, 'wrong', 10), { priority: false, address: '10.0.0.2' });
    const correct = gate.run(check(started, 'correct', 100), { priority: true, address: '10.0.0.3' });
    await jest.advanceTimersByTimeAsync(300);
    expect(started).toEqual(['first', 'correct']);
    await jest.advanceTimersByTimeAsync(100);
    expect(await Promise.all([first, correct])).toEqual(['first', 'correct']);
    // The budget is now 125 ms short (50 short after the first, 25 filled, 100 spent): 500 ms to fill.
    await jest.advanceTimersByTimeAsync(490);
    expect(started).toEqual(['first', 'correct']);
    await jest.advanceTimersByTimeAsync(20);
    expect(started).toEqual(['first', 'correct', 'wrong']);
    await jest.advanceTimersByTimeAsync(10);
    expect(await wrong).toBe('wrong');
  });

  test('counts a check of two hashes at once twice', async () => {
    const gate = new SecretCheckGate({ inFlight: 1, cpuPercent: 25 }, () => Date.now());
    const run = gate.run(check([], 'both', 100), { priority: false, address: '10.0.0.1' }, 2);
    await jest.advanceTimersByTimeAsync(100);
    await run;
    expect(gate.spent.cpuMs).toBe(200);
  });

  test('serves the priority lane first, then the fair lane one address at a time', async () => {
    const gate = new SecretCheckGate({ inFlight: 1, cpuPercent: 400 }, () => Date.now());
    const started: string[] = [];
    const runs = [
      gate.run(check(started, 'running', 10), { priority: false, address: '10.0.0.9' }),
      gate.run(check(started, 'flood-1', 10), { priority: false, address: '10.0.0.1' }),
      gate.run(check(started, 'flood-2', 10), { priority: false, address: '10.0.0.1' }),
      gate.run(check(started, 'other', 10), { priority: false, address: '10.0.0.2' }),
      gate.run(check(started, 'known client', 10), { priority: true, address: '10.0.0.3' }),
    ];
    await jest.advanceTimersByTimeAsync(50);
    await Promise.all(runs);
    expect(started).toEqual(['running', 'known client', 'flood-1', 'other', 'flood-2']);
  });

  test('refuses as busy a check whose address has its share waiting, and one that waited too long', async () => {
    const gate = new SecretCheckGate({ inFlight: 1, cpuPercent: 400 }, () => Date.now());
    const started: string[] = [];
    const lane = { priority: false, address: '10.0.0.1' };
    const running = gate.run(check(started, 'running', 20_000), { priority: false, address: '10.0.0.9' });
    const waiting = [gate.run(check(started, 'w1', 1), lane), gate.run(check(started, 'w2', 1), lane)];
    expect(await gate.run(check(started, 'w3', 1), lane)).toBe(GATE_BUSY);
    await jest.advanceTimersByTimeAsync(10_000);
    expect(await Promise.all(waiting)).toEqual([GATE_BUSY, GATE_BUSY]);
    await jest.advanceTimersByTimeAsync(10_000);
    expect(await running).toBe('running');
    expect(started).toEqual(['running']);
    expect(gate.spent.busy).toBe(3);
  });
});
