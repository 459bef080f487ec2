/**
 * Routing profiles as data: the document's schema, its check (clear errors naming the
 * field), and the compiled form the road builder reads per way and node. The shipped
 * document is `DEFAULT_PROFILES` (src/osm/default-profiles.ts); a user's own replaces the
 * profiles it gives, mode by mode.
 */
import { z } from 'zod';
import { ProfileError } from '../errors.js';
import { DEFAULT_PROFILES } from './default-profiles.js';
import { MODES, type Mode } from './modes.js';

/** What access tags say of a mode: open, destination only, or closed. */
export type Access = 'open' | 'destination' | 'closed';

const kmh = z.number().finite().min(0).max(300);
// whole ms (route weights are whole ms), at most ten minutes a turn
const ms = z.number().int().min(0).max(600_000);
const side = z.strictObject({ slight: ms, normal: ms, sharp: ms });
const turnCostsSchema = z.strictObject({ left: side, right: side, uTurn: ms, signals: ms, stop: ms, giveWay: ms, crossing: ms });

/**
 * What turning from one road segment onto the next costs a mode, ms (a profile's `turnCosts`;
 * src/route/turns.ts applies it): by the angle's class on each side (Nepal drives on the left,
 * so a right turn crosses the oncoming traffic), a U-turn, and the delay of passing a junction
 * tagged with traffic signals, a stop or give-way sign, or a crossing.
 */
export interface TurnCosts {
  /** By angle class, for turns to the left (with the traffic) and to the right (across it). */
  left: { slight: number; normal: number; sharp: number };
  right: { slight: number; normal: number; sharp: number };
  /** Turning back (the same segment back, where allowed, or a turn of 170° or more onto another road). */
  uTurn: number;
  /** Passing a junction tagged `highway=traffic_signals` (or `crossing=traffic_signals`), `stop`, `give_way`, `crossing`. */
  signals: number;
  stop: number;
  giveWay: number;
  crossing: number;
}

/** Whether `c` (a recorded document's `turnCosts`, perhaps from an older or crafted snapshot) is a valid `TurnCosts`. */
export function isTurnCosts(c: unknown): c is TurnCosts {
  // by hand, not by the schema: routing asks this per query, and a zod parse costs more than the route's lookups
  if (typeof c !== 'object' || c === null) return false;
  const t = c as TurnCosts;
  return okSide(t.left) && okSide(t.right) && okMs(t.uTurn) && okMs(t.signals) && okMs(t.stop) && okMs(t.giveWay) && okMs(t.crossing);
}

// module functions, not closures made per call: `isTurnCosts` runs once per arc a search seeds
function okMs(v: unknown): boolean {
  return Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 600_000;
}

function okSide(v: unknown): boolean {
  if (typeof v !== 'object' || v === null) return false;
  const s = v as TurnCosts['left'];
  return okMs(s.slight) && okMs(s.normal) && okMs(s.sharp);
}

const keyList = z.array(z.string().min(1)).min(1);

const profileSchema = z
  .object({
    accessKeys: keyList,
    values: z.strictObject({ open: z.array(z.string()), destination: z.array(z.string()), closed: z.array(z.string()) }),
    speeds: z.record(z.string().min(1), kmh),
    ifAllowed: z.record(z.string().min(1), kmh.positive()),
    builtUpSpeeds: z.record(z.string().min(1), kmh.positive()),
    limits: z.strictObject({ rural: kmh.positive().nullable(), builtUp: kmh.positive().nullable() }),
    maxspeed: z.boolean(),
    oneway: z.strictObject({ keys: z.array(z.string().min(1)), implied: z.boolean(), contraflow: z.boolean() }),
    barriers: z.array(z.string().min(1)),
    push: z.boolean(),
    turnCosts: turnCostsSchema,
  })
  .strict()
  .superRefine((p, ctx) => {
    const seen = new Map<string, string>();
    for (const kind of ['open', 'destination', 'closed'] as const)
      for (const v of p.values[kind]) {
        const had = seen.get(v);
        if (had) ctx.addIssue({ code: 'custom', path: ['values', kind], message: `"${v}" is in both ${had} and ${kind}` });
        seen.set(v, kind);
      }
    if (!Object.values(p.speeds).some((v) => v > 0) && !Object.keys(p.ifAllowed).length)
      ctx.addIssue({ code: 'custom', path: ['speeds'], message: 'opens no class: give some class a speed above 0' });
  });

const documentSchema = z
  .object({
    version: z.literal(1),
    builtUp: z.strictObject({ cellMetres: z.number().finite().min(50).max(5000), minBuildings: z.number().int().min(1) }).optional(),
    foot: profileSchema.optional(),
    bike: profileSchema.optional(),
    car: profileSchema.optional(),
    motorbike: profileSchema.optional(),
  })
  .strict();

/** One mode's profile, as the document gives it (docs/routing.md, "Profiles"). */
export type ProfileDoc = z.infer<typeof profileSchema>;

/** A profiles document, every mode given (what `checkProfiles` returns and a snapshot records). */
export interface ProfilesDoc {
  version: 1;
  builtUp: { cellMetres: number; minBuildings: number };
  foot: ProfileDoc;
  bike: ProfileDoc;
  car: ProfileDoc;
  motorbike: ProfileDoc;
}

/**
 * Checks a profiles document (parsed JSON) and fills the modes and fields it leaves out from
 * the defaults: a mode it gives replaces the default profile of that mode whole. Throws
 * `ProfileError` naming the first bad field (`car.speeds.primary: …`).
 *
 * @example
 * checkProfiles(JSON.parse(readFileSync('fleet.json', 'utf8')));
 */
export function checkProfiles(doc: unknown): ProfilesDoc {
  const r = documentSchema.safeParse(doc);
  if (!r.success) {
    const issue = r.error.issues[0];
    const field = issue.path.length ? issue.path.map(String).join('.') : 'profiles';
    throw new ProfileError(field, issue.message);
  }
  const d = DEFAULT_PROFILES as unknown as ProfilesDoc;
  return {
    version: 1,
    builtUp: r.data.builtUp ?? d.builtUp,
    foot: r.data.foot ?? d.foot,
    bike: r.data.bike ?? d.bike,
    car: r.data.car ?? d.car,
    motorbike: r.data.motorbike ?? d.motorbike,
  };
}

/** A profile compiled for reading tags: sets and maps instead of lists and records. */
export interface ModeRules {
  mode: Mode;
  /** Access keys from the most general to the most specific; the last is the mode's own key. */
  accessKeys: readonly string[];
  /** Access values and what they mean (a value not here is ignored, as if not set). */
  values: ReadonlyMap<string, Access>;
  /** km/h by class outside built-up areas: classes the mode uses by default (`*`: any other road). */
  speeds: ReadonlyMap<string, number>;
  /** km/h of classes only the mode's own key opens. */
  ifAllowed: ReadonlyMap<string, number>;
  /** km/h by class in built-up areas (a class not here: its `speeds`). */
  builtUpSpeeds: ReadonlyMap<string, number>;
  limits: { rural: number | null; builtUp: number | null };
  maxspeed: boolean;
  oneway: { keys: readonly string[]; implied: boolean; contraflow: boolean };
  barriers: ReadonlySet<string>;
  push: boolean;
}

/** The compiled profiles of every mode, in `MODES` order, with the document they came from. */
export interface Profiles {
  doc: ProfilesDoc;
  modes: readonly ModeRules[];
}

/** Compiles a checked document. */
export function compileProfiles(doc: ProfilesDoc): Profiles {
  const modes = MODES.map((mode): ModeRules => {
    const p = doc[mode];
    const values = new Map<string, Access>();
    for (const v of p.values.open) values.set(v, 'open');
    for (const v of p.values.destination) values.set(v, 'destination');
    for (const v of p.values.closed) values.set(v, 'closed');
    return {
      mode,
      accessKeys: p.accessKeys,
      values,
      speeds: new Map(Object.entries(p.speeds)),
      ifAllowed: new Map(Object.entries(p.ifAllowed)),
      builtUpSpeeds: new Map(Object.entries(p.builtUpSpeeds)),
      limits: p.limits,
      maxspeed: p.maxspeed,
      oneway: p.oneway,
      barriers: new Set(p.barriers),
      push: p.push,
    };
  });
  return { doc, modes };
}

/** The shipped profiles, compiled. */
export const DEFAULTS: Profiles = compileProfiles(checkProfiles(DEFAULT_PROFILES));
