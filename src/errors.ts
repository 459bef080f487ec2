/**
 * The arguments of `nearby`, `place`, `search` and `reverse` that an `InvalidQueryError`
 * can name; `query` is the query object itself (not an object).
 */
export type QueryParam =
  | 'query'
  | 'type'
  | 'lat'
  | 'lon'
  | 'radius'
  | 'limit'
  | 'sortBy'
  | 'isOpen'
  | 'at'
  | 'q'
  | 'placeId'
  | 'points'
  | 'mode'
  | 'instructions'
  | 'alternatives'
  | 'records'
  | 'geometry'
  | 'sources'
  | 'destinations'
  | 'minutes'
  | 'by'
  | 'lang';

/** A query argument is missing or out of range. `param` names it. */
export class InvalidQueryError extends Error {
  readonly param: QueryParam;
  constructor(param: QueryParam, message: string) {
    super(`${param}: ${message}`);
    this.name = 'InvalidQueryError';
    this.param = param;
  }
}

/** What a file error may keep of what caused it. */
export interface FileErrorOptions {
  /** The error underneath (the system's, zlib's), as `Error.cause`. */
  cause?: unknown;
  /** Its code: the system's when the file could not be read (`ENOENT`, `EACCES`, `EISDIR`), zlib's or Node's when a blob would not inflate (`Z_DATA_ERROR`, `ERR_BUFFER_TOO_LARGE`). */
  code?: string;
}

/**
 * A PBF file could not be read: missing or unreadable, not a PBF, truncated or
 * corrupt, or refused by strict loading. `file` names it; `cause` and `code` keep
 * the error underneath, when there is one.
 */
export class PbfError extends Error {
  readonly file: string;
  /** See `FileErrorOptions.code`; undefined when no system or zlib error caused this. */
  readonly code?: string;
  constructor(file: string, message: string, options: FileErrorOptions = {}) {
    super(`${file}: ${message}`, { cause: options.cause });
    this.name = 'PbfError';
    this.file = file;
    if (options.code !== undefined) this.code = options.code;
  }
}

/** Why a snapshot was refused. */
export type SnapshotProblem = 'unreadable' | 'truncated' | 'corrupted' | 'wrong-version' | 'foreign';

/**
 * Bytes that are not a usable snapshot: `problem` tells which (a file that could not
 * be read, cut short, damaged, written by another format version, or not a snapshot
 * at all); `file` names the file when there is one. An `unreadable` one keeps the
 * system's `code` (`ENOENT`, `EACCES`, `EISDIR`) and its error as `cause`.
 */
export class SnapshotError extends Error {
  readonly problem: SnapshotProblem;
  readonly file: string;
  /** The system's error code of an `unreadable` file. */
  readonly code?: string;
  constructor(problem: SnapshotProblem, message: string, file = '<buffer>', options: FileErrorOptions = {}) {
    super(`${file}: ${problem} snapshot: ${message}`, { cause: options.cause });
    this.name = 'SnapshotError';
    this.problem = problem;
    this.file = file;
    if (options.code !== undefined) this.code = options.code;
  }
}

/** Why `route()` found no route. */
export type RouteProblem = 'too-far' | 'no-route' | 'too-long';

/**
 * No route joins the points: `problem` is `too-far` when point `point` (0-based) lies
 * farther than the snapping limit from every road the mode may use, `no-route` when
 * no road of the mode joins point `point` to the next one (islands of the network),
 * `too-long` when the leg from point `point` needs more search than an index without
 * contraction hierarchies (a PBF loaded without `contract`) does for one query.
 */
export class RouteError extends Error {
  readonly problem: RouteProblem;
  readonly point: number;
  readonly mode: string;
  constructor(problem: RouteProblem, point: number, mode: string, message: string) {
    super(message);
    this.name = 'RouteError';
    this.problem = problem;
    this.point = point;
    this.mode = mode;
  }
}

/**
 * A routing profiles document (`loadPbf({ profiles })`, `nepal-places build --profiles`) is
 * not valid: `field` names the first bad field, as a path (`car.speeds.primary`).
 */
export class ProfileError extends Error {
  readonly field: string;
  constructor(field: string, message: string) {
    super(`profiles: ${field}: ${message}`);
    this.name = 'ProfileError';
    this.field = field;
  }
}
