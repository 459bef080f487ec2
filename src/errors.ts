/** A query argument is missing or out of range. `param` names it. */
export class InvalidQueryError extends Error {
  readonly param: string;
  constructor(param: string, message: string) {
    super(`${param}: ${message}`);
    this.name = 'InvalidQueryError';
    this.param = param;
  }
}

/** A PBF file could not be read: not a PBF, truncated or corrupt. `file` names it. */
export class PbfError extends Error {
  readonly file: string;
  constructor(file: string, message: string) {
    super(`${file}: ${message}`);
    this.name = 'PbfError';
    this.file = file;
  }
}

/** Why a snapshot was refused. */
export type SnapshotProblem = 'truncated' | 'corrupted' | 'wrong-version' | 'foreign';

/**
 * Bytes that are not a usable snapshot: `problem` tells which (cut short, damaged,
 * written by another format version, or not a snapshot at all); `file` names the
 * file when there is one.
 */
export class SnapshotError extends Error {
  readonly problem: SnapshotProblem;
  readonly file: string;
  constructor(problem: SnapshotProblem, message: string, file = '<buffer>') {
    super(`${file}: ${problem} snapshot: ${message}`);
    this.name = 'SnapshotError';
    this.problem = problem;
    this.file = file;
  }
}

/** Why `route()` found no route. */
export type RouteProblem = 'too-far' | 'no-route';

/**
 * No route joins the points: `problem` is `too-far` when point `point` (0-based) lies
 * farther than the snapping limit from every road the mode may use, `no-route` when
 * no road of the mode joins point `point` to the next one (islands of the network).
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
