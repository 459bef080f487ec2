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
