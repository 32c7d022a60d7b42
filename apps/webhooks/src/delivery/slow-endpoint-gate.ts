/** What the gate needs to know of a replica: its places and how long an attempt may take. */
export interface SlowEndpointLimits {
  /** WEBHOOK_DELIVERY_CONCURRENCY: the replica's places for attempts at once. */
  places: number;
  /** WEBHOOK_ATTEMPT_TIMEOUT_MS: the longest an attempt holds its place. */
  attemptTimeoutMs: number;
}

/**
 * An attempt let through the gate. `sending` when its request starts (a
 * queued attempt enters before its claim, whose time is not the
 * endpoint's); `leave` once it is over, with how long the request took
 * (none if it was never sent). Both may be called again: only the first counts.
 */
export interface GatePass {
  sending(now: number): void;
  leave(tookMs?: number): void;
}

interface EndpointState {
  /** Attempts let through whose request has not started (claiming). */
  reserved: Set<GatePass>;
  /** Start times of the requests in flight, oldest first (a Map keeps insertion order). */
  readonly sending: Map<GatePass, number>;
  /** When its latest finished attempt ended, if that attempt took a slow answer's time; undefined once one answers fast. */
  slowSince?: number;
}

/** A put-back never waits less than this: a slow endpoint is not asked again sooner. */
export const MIN_DEFER_MS = 250;
/** An endpoint slow with nothing in flight is forgotten after this long (its slowness is then learnt again). */
export const SLOW_MEMORY_MS = 60 * 60 * 1000;

/**
 * Keeps endpoints that answer slowly or not at all from holding a replica's
 * places (docs/ARCHITECTURE.md, Webhook delivery). An endpoint is slow while
 * one of its requests in flight has run for `slowMs` (a second, or half the
 * attempt timeout if that is shorter), or its latest attempt took that long
 * (until one answers fast, or an hour passes with none made). A slow
 * endpoint gets at most a sixteenth of the places, and slow endpoints
 * together at most half, so the other merchants' webhooks always find room.
 * An endpoint that answers in milliseconds never meets a bound: the gate
 * costs it a few map operations. Counted in each replica, in memory: a new
 * replica learns an endpoint's slowness from its first slow attempt.
 */
export class SlowEndpointGate {
  readonly slowMs: number;
  readonly perEndpoint: number;
  readonly allSlow: number;
  private readonly endpoints = new Map<string, EndpointState>();

  /** `left(endpointId)` is told after each attempt leaves: a place of that endpoint may be free. */
  constructor(
    private readonly limits: SlowEndpointLimits,
    private readonly left: (endpointId: string) => void = () => undefined,
  ) {
    this.slowMs = Math.min(1000, limits.attemptTimeoutMs / 2);
    this.perEndpoint = Math.max(1, Math.floor(limits.places / 16));
    this.allSlow = Math.max(1, Math.floor(limits.places / 2));
  }

  /** Lets a queued attempt to the endpoint through, counted until it leaves; undefined when the endpoint is slow and at a bound. */
  tryEnter(endpointId: string, now: number): GatePass | undefined {
    if (this.room(endpointId, now) === 0) return undefined;
    const state = this.stateOf(endpointId);
    const pass = this.passFor(endpointId, state);
    state.reserved.add(pass);
    return pass;
  }

  /** Counts an attempt claimed and sending now, whatever the bounds: it is made anyway. */
  enter(endpointId: string, now: number): GatePass {
    const state = this.stateOf(endpointId);
    const pass = this.passFor(endpointId, state);
    state.sending.set(pass, now);
    return pass;
  }

  /** Whether the endpoint is slow now: its attempts should not take places without the gate. */
  isSlow(endpointId: string, now: number): boolean {
    const state = this.endpoints.get(endpointId);
    if (!state) return false;
    if (state.slowSince !== undefined) return true;
    const oldest = state.sending.values().next();
    return !oldest.done && now - oldest.value >= this.slowMs;
  }

  /**
   * How many attempts to the endpoint may start now: no bound for a fast
   * one (a sixteenth of the places is answered, as a batch to bring back);
   * for a slow one, the places it has left under both bounds.
   */
  room(endpointId: string, now: number): number {
    return this.firstWithRoom([endpointId], now)?.room ?? 0;
  }

  /**
   * The first of `candidates` with room now, and how much: the slow half's
   * headroom is counted once for all of them (bringing held attempts back
   * runs at every slow attempt's end).
   */
  firstWithRoom(candidates: Iterable<string>, now: number): { endpointId: string; room: number } | undefined {
    let headroom: number | undefined;
    for (const endpointId of candidates) {
      if (!this.isSlow(endpointId, now)) return { endpointId, room: this.perEndpoint };
      headroom ??= this.allSlow - this.slowInFlight(now);
      if (headroom <= 0) continue; // a fast candidate later may still come back
      const room = Math.min(this.perEndpoint - this.inFlight(this.stateOf(endpointId)), headroom);
      if (room > 0) return { endpointId, room };
    }
    return undefined;
  }

  /** The endpoints slow now, whose first attempts the intake leaves to the queue; forgets those slow and idle for an hour. */
  slowEndpoints(now: number): string[] {
    const slow: string[] = [];
    for (const [endpointId, state] of this.endpoints) {
      if (this.inFlight(state) === 0 && (state.slowSince === undefined || now - state.slowSince >= SLOW_MEMORY_MS)) this.endpoints.delete(endpointId);
      else if (this.isSlow(endpointId, now)) slow.push(endpointId);
    }
    return slow;
  }

  /**
   * How long an attempt turned away should wait before it asks again: until
   * the oldest request that holds it back must have ended (its endpoint's
   * own, or any slow endpoint's when the endpoint has none in flight), at
   * least MIN_DEFER_MS, at most one attempt timeout.
   */
  retryAfterMs(endpointId: string, now: number): number {
    const own = this.endpoints.get(endpointId)?.sending.values().next();
    const oldest = own && !own.done ? own.value : this.oldestSlowRequest(now);
    const untilFree = oldest === undefined ? 0 : oldest + this.limits.attemptTimeoutMs - now;
    return Math.min(this.limits.attemptTimeoutMs, Math.max(MIN_DEFER_MS, untilFree));
  }

  /** Attempts in flight to slow endpoints, all of them: only asked for a slow endpoint, so fast ones never pay for it. */
  private slowInFlight(now: number): number {
    let count = 0;
    for (const [endpointId, state] of this.endpoints) if (this.isSlow(endpointId, now)) count += this.inFlight(state);
    return count;
  }

  private oldestSlowRequest(now: number): number | undefined {
    let oldest: number | undefined;
    for (const [endpointId, state] of this.endpoints) {
      const first = state.sending.values().next();
      if (!first.done && (oldest === undefined || first.value < oldest) && this.isSlow(endpointId, now)) oldest = first.value;
    }
    return oldest;
  }

  private inFlight(state: EndpointState): number {
    return state.reserved.size + state.sending.size;
  }

  private stateOf(endpointId: string): EndpointState {
    let state = this.endpoints.get(endpointId);
    if (!state) this.endpoints.set(endpointId, (state = { reserved: new Set(), sending: new Map() }));
    return state;
  }

  private passFor(endpointId: string, state: EndpointState): GatePass {
    const pass: GatePass = {
      sending: (now) => {
        if (state.reserved.delete(pass)) state.sending.set(pass, now);
      },
      leave: (tookMs) => this.leave(endpointId, state, pass, tookMs),
    };
    return pass;
  }

  private leave(endpointId: string, state: EndpointState, pass: GatePass, tookMs: number | undefined): void {
    const started = state.sending.get(pass);
    if (!state.reserved.delete(pass) && !state.sending.delete(pass)) return; // left before
    if (started !== undefined && tookMs !== undefined) state.slowSince = tookMs >= this.slowMs ? started + tookMs : undefined;
    if (this.inFlight(state) === 0 && state.slowSince === undefined && this.endpoints.get(endpointId) === state) this.endpoints.delete(endpointId);
    this.left(endpointId);
  }
}
