/** What the gate needs to know of a replica: its places and how long an attempt may take. */
export interface SlowEndpointLimits {
  /** WEBHOOK_DELIVERY_CONCURRENCY: the replica's places for attempts at once. */
  places: number;
  /** WEBHOOK_ATTEMPT_TIMEOUT_MS: the longest an attempt holds its place. */
  attemptTimeoutMs: number;
}

/** An attempt let through the gate; `leave` once it is over, with how long it took (none if it was never sent). */
export interface GatePass {
  leave(tookMs?: number): void;
}

interface EndpointState {
  /** Start times of this endpoint's attempts in flight, oldest first (a Map keeps insertion order). */
  readonly inFlight: Map<GatePass, number>;
  /** Whether its latest finished attempt took a slow endpoint's time. */
  lastWasSlow: boolean;
}

/** A put-back never waits less than this: a slow endpoint is not asked again sooner. */
export const MIN_DEFER_MS = 250;
/** Past this many endpoints known, those with nothing in flight are forgotten (their slowness is learnt again). */
const REMEMBERED_ENDPOINTS = 4096;

/**
 * Keeps endpoints that answer slowly or not at all from holding a replica's
 * places (docs/ARCHITECTURE.md, Webhook delivery). An endpoint is slow while
 * one of its attempts in flight has run for `slowMs` (a second, or half the
 * attempt timeout if that is shorter), or its latest attempt took that long.
 * A slow endpoint gets at most a sixteenth of the places, and slow endpoints
 * together at most half, so the other merchants' webhooks always find room.
 * An endpoint that answers in milliseconds never meets a bound: the gate
 * costs it a map lookup. Counted in each replica, in memory: a new replica
 * learns an endpoint's slowness from its first slow attempt.
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

  /** Lets an attempt to the endpoint through, counted until it leaves; undefined when the endpoint is slow and at a bound. */
  tryEnter(endpointId: string, now: number): GatePass | undefined {
    if (this.isSlow(endpointId, now) && (this.stateOf(endpointId).inFlight.size >= this.perEndpoint || this.slowInFlight(now) >= this.allSlow)) return undefined;
    return this.enter(endpointId, now);
  }

  /** Counts an attempt already claimed, whatever the bounds: it is made anyway. */
  enter(endpointId: string, now: number): GatePass {
    const state = this.stateOf(endpointId);
    const pass: GatePass = { leave: (tookMs) => this.leave(endpointId, state, pass, tookMs) };
    state.inFlight.set(pass, now);
    this.endpoints.set(endpointId, state);
    return pass;
  }

  /** Whether the endpoint is slow now: its attempts should not take places without the gate. */
  isSlow(endpointId: string, now: number): boolean {
    const state = this.endpoints.get(endpointId);
    if (!state) return false;
    if (state.lastWasSlow) return true;
    const oldest = state.inFlight.values().next();
    return !oldest.done && now - oldest.value >= this.slowMs;
  }

  /**
   * How many attempts turned away from the endpoint may come back now: the
   * places it has left while slow, or a sixteenth of all once it is not.
   */
  room(endpointId: string, now: number): number {
    if (!this.isSlow(endpointId, now)) return this.perEndpoint;
    return Math.max(0, Math.min(this.perEndpoint - this.stateOf(endpointId).inFlight.size, this.allSlow - this.slowInFlight(now)));
  }

  /** The endpoints slow now, whose first attempts the intake leaves to the queue. */
  slowEndpoints(now: number): string[] {
    return [...this.endpoints.keys()].filter((endpointId) => this.isSlow(endpointId, now));
  }

  /**
   * How long an attempt turned away should wait before it asks again: until
   * the endpoint's oldest attempt in flight must have ended (its timeout),
   * at least MIN_DEFER_MS, at most one attempt timeout.
   */
  retryAfterMs(endpointId: string, now: number): number {
    const oldest = this.endpoints.get(endpointId)?.inFlight.values().next();
    const untilFree = oldest && !oldest.done ? oldest.value + this.limits.attemptTimeoutMs - now : 0;
    return Math.min(this.limits.attemptTimeoutMs, Math.max(MIN_DEFER_MS, untilFree));
  }

  /** Attempts in flight to slow endpoints, all of them: only asked for a slow endpoint, so fast ones never pay for it. */
  private slowInFlight(now: number): number {
    let count = 0;
    for (const [endpointId, state] of this.endpoints) if (state.inFlight.size > 0 && this.isSlow(endpointId, now)) count += state.inFlight.size;
    return count;
  }

  private stateOf(endpointId: string): EndpointState {
    return this.endpoints.get(endpointId) ?? { inFlight: new Map(), lastWasSlow: false };
  }

  private leave(endpointId: string, state: EndpointState, pass: GatePass, tookMs: number | undefined): void {
    if (!state.inFlight.delete(pass)) return; // left before
    if (tookMs !== undefined) state.lastWasSlow = tookMs >= this.slowMs;
    if (state.inFlight.size === 0 && !state.lastWasSlow && this.endpoints.get(endpointId) === state) this.endpoints.delete(endpointId);
    if (this.endpoints.size > REMEMBERED_ENDPOINTS) this.forgetIdle();
    this.left(endpointId);
  }

  private forgetIdle(): void {
    for (const [endpointId, state] of this.endpoints) if (state.inFlight.size === 0) this.endpoints.delete(endpointId);
  }
}
