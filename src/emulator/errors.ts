// The error bodies of the service. Each route belongs to one family, and every failure it raises is an ApiError
// that is written in that family's shape:
//   ds       {error, message, errorDetails:[{errorDetailType:"DatastoreErrorInfo", datastoreErrorCode}]}
//   v2       {code, message, details}
//   ds2      {code, message}: cloud v2 data stores, which leave `details` out (U15)
//   assets   {code, message}. `code` is the numeric gRPC code (3 INVALID_ARGUMENT, 5 NOT_FOUND, 7 PERMISSION_DENIED,
//            8 RESOURCE_EXHAUSTED, ...): the spec types Status.code as int32 and failed operations use the same numbers.
//   gateway  {errors:[{code:0, message}]}: authentication and routing (401, unknown path 404, wrong method 405).
// A write the data folder cannot take is refused in the route's family, never as an internal error: 507 when the disk
// is full (ENOSPC, EDQUOT), 503 when the journal is broken or the folder cannot be written for another reason.

export type Family = 'ds' | 'ds2' | 'v2' | 'assets' | 'gateway';

export class ApiError extends Error {
  /** The `code` of a cloud v2 body when it is not the status's usual name. */
  v2Code?: string;

  constructor(
    readonly status: number,
    message: string,
    /** datastoreErrorCode for the ds family; the other families derive their code from the status. */
    readonly dsCode?: string,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

/** A 400 (the common case). */
export function invalid(message: string, dsCode?: string): ApiError {
  return new ApiError(400, message, dsCode);
}

const names: Record<number, [name: string, grpc: number]> = {
  400: ['INVALID_ARGUMENT', 3],
  403: ['PERMISSION_DENIED', 7],
  404: ['NOT_FOUND', 5],
  409: ['ABORTED', 10],
  412: ['FAILED_PRECONDITION', 9],
  429: ['RESOURCE_EXHAUSTED', 8],
  500: ['INTERNAL', 13],
  503: ['UNAVAILABLE', 14],
  507: ['RESOURCE_EXHAUSTED', 8],
};

// datastoreErrorCode when a ds error names none. 400s without a documented code (a bad boolean or limit) use
// InvalidArgument; 412 without a current entry (matchVersion on a missing key) uses PreconditionFailed.
const dsDefaults: Record<number, string> = {
  400: 'InvalidArgument',
  403: 'InsufficientScope',
  404: 'NotFound',
  412: 'PreconditionFailed',
  429: 'TooManyRequests',
  500: 'Unknown',
  503: 'Unavailable',
  507: 'InsufficientStorage',
};

export function errorBody(family: Family, err: ApiError): unknown {
  const [name, grpc] = names[err.status] ?? ['UNKNOWN', 2];
  switch (family) {
    case 'ds':
      return {
        error: err.status === 403 ? 'INSUFFICIENT_SCOPE' : name,
        message: err.message,
        errorDetails: [
          {
            errorDetailType: 'DatastoreErrorInfo',
            datastoreErrorCode: err.dsCode ?? dsDefaults[err.status] ?? 'Unknown',
          },
        ],
      };
    case 'v2':
      return { code: err.v2Code ?? name, message: err.message, details: [] };
    case 'ds2':
      return { code: err.v2Code ?? name, message: err.message };
    case 'assets':
      return { code: grpc, message: err.message };
    case 'gateway':
      return { errors: [{ code: 0, message: err.message }] };
  }
}

export const invalidApiKey = (): ApiError => new ApiError(401, 'Invalid API Key');

export const isDiskFull = (err: unknown): boolean =>
  ['ENOSPC', 'EDQUOT'].includes((err as NodeJS.ErrnoException)?.code ?? '');

export const diskFull = (): ApiError =>
  new ApiError(507, "The emulator's disk is full; nothing was written. Free some space and try again.");

/** The answer to a write the data folder refused (`broken`: the journal takes no more appends until a restart). */
export function refusedWrite(err: unknown, broken: boolean): ApiError {
  if (isDiskFull(err) && !broken) return diskFull();
  if (broken) {
    return new ApiError(
      503,
      "The emulator's journal could not be repaired after a failed write, so it takes no more writes; nothing was written. Restart the emulator.",
    );
  }
  const code = (err as NodeJS.ErrnoException)?.code ?? (err as Error)?.message;
  return new ApiError(503, `The emulator could not write to its data folder (${code}); nothing was written.`);
}
