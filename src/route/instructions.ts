import { ROUNDABOUT, type RoadGraph } from '../model/roads.js';
import type { Track } from './track.js';

/** One step of a route, in GraphHopper's shape (as Baato returns it). */
export interface Instruction {
  /** GraphHopper's sign: -3 sharp left, -2 left, -1 slight left, 0 continue, 1 slight right, 2 right, 3 sharp right, 4 finish, 5 via, 6 roundabout, -98 U-turn. */
  sign: number;
  /** English, e.g. "Turn left onto Tridevi Marg". */
  text: string;
  /** The street (`name:en` where it exists; in the language asked for, see `InstructionOptions`), or `''`. */
  name: string;
  /** Metres of this step. */
  distance: number;
  /** Milliseconds of this step. */
  time: number;
  /** The step's first and last point in the route's polyline. */
  interval: [number, number];
  /** Roundabouts only: which exit to take (1 = the first). */
  exitNumber?: number;
  /** Bike routes only: `true` on a step the bike is walked (pushed) along, where it may not be ridden; absent elsewhere. */
  pushed?: true;
}

/** GraphHopper's instruction signs. */
export const U_TURN = -98,
  SHARP_LEFT = -3,
  LEFT = -2,
  SLIGHT_LEFT = -1,
  CONTINUE = 0,
  SLIGHT_RIGHT = 1,
  RIGHT = 2,
  SHARP_RIGHT = 3,
  FINISH = 4,
  VIA = 5,
  ROUNDABOUT_SIGN = 6;

const VERBS: Record<number, string> = {
  [U_TURN]: 'Make a U-turn',
  [SHARP_LEFT]: 'Turn sharp left',
  [LEFT]: 'Turn left',
  [SLIGHT_LEFT]: 'Turn slight left',
  [CONTINUE]: 'Continue',
  [SLIGHT_RIGHT]: 'Turn slight right',
  [RIGHT]: 'Turn right',
  [SHARP_RIGHT]: 'Turn sharp right',
};

// A turn this sharp (degrees) on the same street is still worth saying at a junction.
const SAME_STREET_TURN = 60;

/** How `instructions` names streets. */
export interface InstructionOptions {
  /** Road way `way`'s name (default: `RoadGraph.wayName`, the names as mapped). */
  street?: (way: number) => string;
  /** Whether the route walks (pushes) a bike along edge `edge` (`back`: against it); a bike route's step starts where this changes. */
  pushed?: (edge: number, back: boolean) => boolean;
}

/**
 * The instructions of a track. `metres[i]` is the length of segment i as the
 * route's distance counts it, `vias` the points where a leg ends and the next begins.
 * A step starts where the street's name changes, at a sharp turn at a junction,
 * at a roundabout (with its exit number: the junctions where `isExit` says the mode
 * could leave, as GraphHopper counts them) and at a via point; the last is the finish.
 */
export function instructions(
  g: RoadGraph,
  degree: Uint8Array,
  isExit: (v: number) => boolean,
  track: Track,
  metres: ArrayLike<number>,
  vias: number[],
  options: InstructionOptions = {},
): Instruction[] {
  const out: Instruction[] = [];
  const n = track.length;
  const segs = n - 1;
  const streetOf = options.street;
  // where a step starts is decided by the names as mapped, so that every language has the same steps
  const key = (i: number) => g.wayName[g.edgeWay[track.edge[i]]];
  const name = (i: number) => (streetOf ? streetOf(g.edgeWay[track.edge[i]]) : g.strings[g.wayName[g.edgeWay[track.edge[i]]]]);
  const push = (i: number) => (options.pushed ? options.pushed(track.edge[i], track.back[i]) : false);
  const round = (i: number) => (g.wayFlags[g.edgeWay[track.edge[i]]] & ROUNDABOUT) !== 0;
  const cumMs: number[] = [0];
  for (let i = 0; i < segs; i++) cumMs.push(cumMs[i] + track.ms[i]);
  let open: Instruction | undefined;
  let openAt = 0;
  const close = (at: number) => {
    if (!open) return;
    let d = 0;
    for (let i = openAt; i < at; i++) d += metres[i];
    open.distance = d;
    open.time = Math.round(cumMs[at]) - Math.round(cumMs[openAt]);
    open.interval = [openAt, at];
    out.push(open);
    open = undefined;
  };
  // the step open is a leg's first (it continues from the start or a via point)
  let opening = false;
  const begin = (at: number, sign: number, street: string, text?: string, first = false) => {
    let from = at;
    if (open && open.sign !== ROUNDABOUT_SIGN && lengthOf(openAt, at) === 0) {
      // a step of no length (a start or a via point a hair off a junction) names a road the
      // route does not drive: the next step takes its place, and its place as a leg's first
      from = openAt;
      if (opening && sign !== ROUNDABOUT_SIGN && sign !== U_TURN) {
        sign = CONTINUE;
        text = undefined;
      }
      first ||= opening;
      open = undefined;
    } else close(at);
    const walked = from < segs && push(from);
    open = {
      sign,
      text: text ?? (walked ? sayPushed(sign, street) : say(sign, street)),
      name: street,
      distance: 0,
      time: 0,
      interval: [from, from],
    };
    if (walked) open.pushed = true;
    openAt = from;
    opening = first;
  };
  const lengthOf = (a: number, b: number) => {
    let d = 0;
    for (let i = a; i < b; i++) d += metres[i];
    return d;
  };
  let via = 0;
  for (let p = 0; p < segs; p++) {
    if (p > 0 && vias[via] === p) {
      close(p);
      via++;
      out.push({ sign: VIA, text: `Arrive at waypoint ${via}`, name: '', distance: 0, time: 0, interval: [p, p] });
      begin(p, reverses(track, p) ? U_TURN : CONTINUE, name(p), undefined, true);
      continue;
    }
    const inRound = p > 0 && round(p - 1),
      nowRound = round(p);
    if (p === 0 && !nowRound) {
      begin(0, CONTINUE, name(0), undefined, true);
      continue;
    }
    if (nowRound && !inRound) {
      // the exit: the junctions passed where the mode could leave, until the route leaves the roundabout
      let exits = 0,
        q = p + 1;
      while (q < n) {
        const v = track.node[q];
        if (v >= 0 && isExit(v)) exits++;
        if (q >= segs || !round(q)) break;
        q++;
      }
      const street = q < segs ? name(q) : name(p);
      begin(
        p,
        ROUNDABOUT_SIGN,
        street,
        `At roundabout, take exit ${Math.max(1, exits)} onto ${street || 'the road'}`.replace(' onto the road', ''),
      );
      open!.exitNumber = Math.max(1, exits);
      continue;
    }
    if (nowRound || inRound) continue; // inside a roundabout, or leaving it onto the street its step named
    const street = name(p);
    const angle = turn(track, p);
    // a U-turn is said only where the route turns back along the road it came by
    const back = reverses(track, p);
    const sign = back ? U_TURN : signOf(angle) === U_TURN ? SHARP_RIGHT * Math.sign(angle || 1) : signOf(angle);
    if (back || key(p) !== key(p - 1) || push(p) !== push(p - 1)) begin(p, sign, street);
    else if (track.node[p] >= 0 && degree[track.node[p]] > 2 && Math.abs(angle) >= SAME_STREET_TURN) begin(p, sign, street);
  }
  const prev = out[out.length - 1];
  if (open && prev && prev.sign !== VIA && open.sign !== ROUNDABOUT_SIGN && lengthOf(openAt, segs) === 0) {
    // an end a hair past a junction: no step onto the road it does not drive; the last step takes its time
    prev.time += Math.round(cumMs[segs]) - Math.round(cumMs[openAt]);
    prev.interval = [prev.interval[0], segs];
    open = undefined;
  }
  close(segs);
  out.push({ sign: FINISH, text: 'Arrive at destination', name: '', distance: 0, time: 0, interval: [segs, segs] });
  return out;
}

// Whether the route turns back at point p: the segment after it runs back along the one before
// (the same edge, the other way), as at a dead end or a via point.
function reverses(t: Track, p: number): boolean {
  if (p < 1 || p + 1 >= t.length || t.edge[p - 1] !== t.edge[p]) return false;
  return t.lon[p + 1] === t.lon[p - 1] && t.lat[p + 1] === t.lat[p - 1];
}

function say(sign: number, street: string): string {
  const verb = VERBS[sign] ?? 'Continue';
  return street ? `${verb} onto ${street}` : verb;
}

// A step the bike is walked along: "Push your bike along Asan Tole", "Turn left and push your bike along …".
function sayPushed(sign: number, street: string): string {
  const along = street ? `push your bike along ${street}` : 'push your bike';
  return sign === CONTINUE || !(sign in VERBS) ? along[0].toUpperCase() + along.slice(1) : `${VERBS[sign]} and ${along}`;
}

/** GraphHopper's sign of a turn of `deg` degrees (positive: right). */
export function signOf(deg: number): number {
  const a = Math.abs(deg);
  const side = deg < 0 ? -1 : 1;
  if (a < 11.5) return CONTINUE;
  if (a < 46) return side * SLIGHT_RIGHT;
  if (a < 103) return side * RIGHT;
  if (a < 170) return side * SHARP_RIGHT;
  return U_TURN;
}

// The turn at point p, degrees in (-180, 180], positive to the right: the change
// of bearing from the last segment before p to the first after it that have a length.
function turn(t: Track, p: number): number {
  let a = p - 1;
  while (a > 0 && t.lon[a] === t.lon[p] && t.lat[a] === t.lat[p]) a--;
  let b = p + 1;
  while (b < t.length - 1 && t.lon[b] === t.lon[p] && t.lat[b] === t.lat[p]) b++;
  const d = bearing(t, p, b) - bearing(t, a, p);
  return d > 180 ? d - 360 : d <= -180 ? d + 360 : d;
}

// Bearing from point i to point j, degrees clockwise from north, on a local projection.
function bearing(t: Track, i: number, j: number): number {
  const k = Math.cos((t.lat[i] * Math.PI) / 180);
  return (Math.atan2((t.lon[j] - t.lon[i]) * k, t.lat[j] - t.lat[i]) * 180) / Math.PI;
}
