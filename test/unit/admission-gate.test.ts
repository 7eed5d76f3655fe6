/**
 * The one admission primitive (lib/admission.ts): a per-job wait deadline (what is left of a request's time
 * limit), refusals made once and reused, and the controlled-delay policy under overload, on a clock that moves only
 * when the test moves it: a queue that has gone an interval without going well (neither empty nor its oldest let in
 * within the target: CoDel's test) and whose oldest waiter has waited the target stands (a long but quick one
 * does not, nor a closed loop of a few more clients than places); then nobody waits past the
 * target (new arrivals get it as their deadline, older waiters past it are refused from the head) and, once the
 * oldest has waited half the target, the newest goes in first; a queue that drains never stands; Retry-After is
 * the queue's drain time at the measured hold.
 */
import { describe, expect, test } from 'vitest';
import { AdmissionGate, AdmissionRefused, type Admitted, type GateClock, type GateLimits } from '../../lib/admission.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('AdmissionGate', () => {
  test('a job waits at most its own deadline; at 0 it is refused at once', async () => {
    const gate = new AdmissionGate({ concurrency: 1, budget: 1, maxWaiting: 10, maxWaitMs: 10_000 });
    const held = await gate.acquire(1);
    const t0 = performance.now();
    await expect(gate.acquire(1, { maxWaitMs: 40 })).rejects.toMatchObject({ why: 'deadline' });
    expect(performance.now() - t0).toBeGreaterThanOrEqual(35);
    await expect(gate.acquire(1, { maxWaitMs: 0 })).rejects.toBeInstanceOf(AdmissionRefused);
    expect(gate.waiting).toBe(0);
    held.release();
    (await gate.acquire(1, { maxWaitMs: 0 })).release();
  });

  test('refusals of one kind and Retry-After are one object (no stack trace made per refusal)', async () => {
    const gate = new AdmissionGate({ concurrency: 1, budget: 1, maxWaiting: 0, maxWaitMs: 1000, initialHoldMs: 100 });
    const held = await gate.acquire(1);
    const a = await gate.acquire(1).catch((e: unknown) => e);
    const b = await gate.acquire(1).catch((e: unknown) => e);
    expect(a).toBeInstanceOf(AdmissionRefused);
    expect(a).toBe(b);
    expect((a as AdmissionRefused).retryAfterS).toBe(1);
    held.release();
  });

  test('without a target the gate never sheds by time', async () => {
    const gate = new AdmissionGate({ concurrency: 1, budget: 1, maxWaiting: 100, maxWaitMs: 5_000 });
    const held = await gate.acquire(1);
    const late = gate.acquire(1);
    await sleep(100);
    expect(gate.standing).toBe(false);
    held.release();
    (await late).release();
  });
});

/** A clock that moves only when told; its timers fire in order as it passes them. */
class TestClock implements GateClock {
  t = 0;
  #timers: { at: number; fn: () => void }[] = [];
  now(): number {
    return this.t;
  }
  setTimeout(fn: () => void, ms: number): unknown {
    const timer = { at: this.t + ms, fn };
    this.#timers.push(timer);
    return timer;
  }
  clearTimeout(timer: unknown): void {
    this.#timers = this.#timers.filter((x) => x !== timer);
  }
  /** Moves to `t` ms, firing the timers due on the way; then lets the promises settle. */
  async to(t: number): Promise<void> {
    for (;;) {
      const next = this.#timers.filter((x) => x.at <= t).sort((a, b) => a.at - b.at)[0];
      if (!next) break;
      this.#timers = this.#timers.filter((x) => x !== next);
      this.t = next.at;
      next.fn();
      await settle();
    }
    this.t = t;
    await settle();
  }
}

const settle = async () => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
};

/** A job's fate, readable synchronously once the promises settled. */
function track(p: Promise<Admitted>): { state: 'waiting' | 'in' | 'refused'; admitted?: Admitted; error?: AdmissionRefused } {
  const t: ReturnType<typeof track> = { state: 'waiting' };
  p.then(
    (a) => Object.assign(t, { state: 'in', admitted: a }),
    (e: AdmissionRefused) => Object.assign(t, { state: 'refused', error: e }),
  );
  return t;
}

describe('AdmissionGate under overload (a test clock)', () => {
  const limits = (clock: TestClock, over: Partial<GateLimits> = {}): GateLimits => ({ concurrency: 1, budget: 1, maxWaiting: 100, maxWaitMs: 10_000, targetMs: 100, intervalMs: 500, clock, ...over });

  test('a burst that drains never stands: every job waits its turn, however long, in order', async () => {
    const clock = new TestClock();
    const gate = new AdmissionGate(limits(clock));
    const first = await gate.acquire(1);
    const jobs = [0, 1, 2].map(() => track(gate.acquire(1)));
    await clock.to(400);
    expect(gate.standing).toBe(false);
    first.release();
    await settle();
    expect(jobs.map((j) => j.state)).toEqual(['in', 'waiting', 'waiting']);
    await clock.to(450);
    jobs[0]!.admitted!.release();
    await settle();
    jobs[1]!.admitted!.release();
    await settle();
    jobs[2]!.admitted!.release();
    await settle();
    // 450 ms of queue, but emptied by letting jobs in: no standing queue, nothing refused
    expect(jobs.map((j) => j.state)).toEqual(['in', 'in', 'in']);
    expect(gate.standing).toBe(false);
    const late = track(gate.acquire(1));
    await settle();
    expect(late.state).toBe('in');
  });

  test('a queue not empty for an interval stands: new arrivals wait at most the target, older waiters past it are refused', async () => {
    const clock = new TestClock();
    const gate = new AdmissionGate(limits(clock));
    const held = await gate.acquire(1);
    const old = track(gate.acquire(1));
    await clock.to(499);
    expect(gate.standing).toBe(false);
    await clock.to(500);
    expect(gate.standing).toBe(true);
    expect(old.state).toBe('waiting'); // its own deadline is 10 s ...
    const fresh = track(gate.acquire(1));
    await settle();
    // ... but it has waited 500 ms > the target, so it is refused, from the head, when the next one arrives
    expect(old.state).toBe('refused');
    expect(old.error!.why).toBe('deadline');
    expect(fresh.state).toBe('waiting');
    await clock.to(599);
    expect(fresh.state).toBe('waiting');
    await clock.to(600);
    expect(fresh.state).toBe('refused');
    // refusing the queue whole does not end the overload: once the next waiter has waited the target, the queue
    // stands again at once (no new interval), and a newer arrival takes its place
    const next = track(gate.acquire(1));
    await clock.to(699);
    expect(gate.standing).toBe(false);
    await clock.to(700);
    expect(gate.standing).toBe(true);
    const newer = track(gate.acquire(1));
    await settle();
    expect(next.state).toBe('refused');
    expect(newer.state).toBe('waiting');
    // a free slot taken straight from an empty queue ends it
    held.release();
    await settle();
    expect(newer.state).toBe('in');
    newer.admitted!.release();
    (await gate.acquire(1)).release();
    expect(gate.standing).toBe(false);
  });

  test('long jobs ahead keep the queue standing, but with no newer work those waiting behind them are let in as they end', async () => {
    // the crash mix of issue 18: two PDFs rendering for seconds, two more waiting, nothing else asked meanwhile
    const clock = new TestClock();
    const gate = new AdmissionGate(limits(clock));
    const held = await gate.acquire(1);
    const behind = [track(gate.acquire(1)), track(gate.acquire(1))];
    await clock.to(3000);
    expect(gate.standing).toBe(true);
    held.release();
    await settle();
    // one let in (the newer: the oldest has waited past half the target), none refused
    expect(behind.map((b) => b.state).sort()).toEqual(['in', 'waiting']);
    await clock.to(6000);
    behind.find((b) => b.state === 'in')!.admitted!.release();
    await settle();
    expect(behind.map((b) => b.state)).toEqual(['in', 'in']);
  });

  test('a long quick queue never stands: a brief slow spell keeps first come first in; newest first only once the queue has gone an interval without going well', async () => {
    const clock = new TestClock();
    const gate = new AdmissionGate(limits(clock));
    let held = await gate.acquire(1);
    // a long quick queue (a closed loop at its capacity): a job every 10 ms, each waiting about 10-20 ms
    const order: number[] = [];
    const waiters: Promise<void>[] = [];
    const ask = (n: number) => waiters.push(gate.acquire(1).then((a) => { order.push(n); held = a; }));
    ask(0);
    for (let t = 10, n = 1; t <= 700; t += 10, n++) {
      await clock.to(t);
      ask(n);
      held.release();
      await settle();
    }
    // a long queue (never empty for 700 ms) but a quick one: not standing
    expect(gate.standing).toBe(false);
    // every one let in so far in order, none refused
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(order.length).toBeGreaterThan(60);
    // now the slot is held 80 ms: the oldest waiter passes half the target, but its queue let its oldest in within
    // the target 80 ms ago: first come, first in still
    await clock.to(760);
    const newest = track(gate.acquire(1));
    await clock.to(780);
    held.release();
    await settle();
    expect(newest.state).toBe('waiting');
    expect(order.at(-1)).toBe(70);
    // the slot held past the target for a whole interval: the queue stands, and the newest goes first
    await clock.to(1400);
    expect(gate.standing).toBe(true);
    const newer = track(gate.acquire(1));
    await settle();
    // the waiters past the target were refused, from the head, as the newer one arrived: only it is left
    expect(newest.state).toBe('refused');
    expect(gate.waiting).toBe(1);
    held.release();
    await settle();
    expect(newer.state).toBe('in');
    newer.admitted!.release();
  });

  test('a closed loop of more clients than places: its queue is never empty and its oldest now and then waits past the target, but it never stands and nobody is refused', async () => {
    // the postgres bench's 16 connections on two processes of 4 DuckDB connections each (issue 18): 8 clients,
    // 4 places, each asking again as soon as it is answered; a query takes 20 ms, but every 700 ms nothing ends for
    // 160 ms (a GC pause, the other process busy), so the oldest waiter passes the target (100 ms) while the queue
    // never empties
    const clock = new TestClock();
    const gate = new AdmissionGate(limits(clock, { concurrency: 4, budget: 4 }));
    let refused = 0;
    let answered = 0;
    let longest = 0;
    let t = 0;
    const inFlight: { until: number; a: Admitted }[] = [];
    const client = (): void => {
      const asked = clock.now();
      gate.acquire(1).then(
        (a) => {
          longest = Math.max(longest, clock.now() - asked);
          answered++;
          const pause = Math.floor(clock.now() / 700) * 700 + 500;
          const until = clock.now() + 20;
          inFlight.push({ until: until > pause && clock.now() < pause + 160 ? pause + 160 : until, a });
        },
        () => {
          refused++;
          client();
        },
      );
    };
    for (let i = 0; i < 8; i++) client();
    await settle();
    let wasStanding = false;
    for (t = 1; t <= 5000; t++) {
      await clock.to(t);
      for (const f of inFlight.filter((x) => x.until <= t)) {
        inFlight.splice(inFlight.indexOf(f), 1);
        f.a.release();
        await settle();
        client();
        await settle();
      }
      wasStanding ||= gate.standing;
    }
    expect(answered).toBeGreaterThan(500);
    // the queue was never empty, and some waited past the target ...
    expect(longest).toBeGreaterThanOrEqual(100);
    // ... but it let its oldest in within the target again and again: a quick queue, not a standing one
    expect(wasStanding).toBe(false);
    expect(refused).toBe(0);
    for (const f of inFlight) f.a.release();
  });

  test('a job arriving at a full waiting line is refused at once; Retry-After is the drain time of the queue at the measured hold', async () => {
    const clock = new TestClock();
    const gate = new AdmissionGate(limits(clock, { concurrency: 2, budget: 2, maxWaiting: 3, initialHoldMs: 2000, targetMs: undefined }));
    const a = await gate.acquire(1);
    const b = await gate.acquire(1);
    const waiting = [0, 1, 2].map(() => track(gate.acquire(1)));
    const full = track(gate.acquire(1));
    await settle();
    expect(full.state).toBe('refused');
    expect(full.error!.why).toBe('full');
    // 3 waiting + this one, two at once, 2 s each: 4 s
    expect(full.error!.retryAfterS).toBe(4);
    // holds of 600 ms measured: the estimate follows (0.8 × 2000 + 0.2 × 600 = 1720 ms, then 1496 ms)
    await clock.to(600);
    a.release();
    b.release();
    await settle();
    expect(waiting.filter((w) => w.state === 'in')).toHaveLength(2);
    expect(gate.retryAfterS()).toBe(Math.ceil((1496 * 2) / 2 / 1000));
    for (const w of waiting) w.admitted?.release();
    await settle();
    for (const w of waiting) w.admitted?.release();
  });
});
