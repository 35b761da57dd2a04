// Typed errors of the client. Every failure the client reports is one of these (or an AbortError).
import { isRecord, type EntryMetadata, type Operation, type OperationStatus } from './schemas';
import type { SortedMapItem } from './schemasMemory';

export interface ApiErrorInit {
  status?: number;
  code?: string;
  details?: unknown;
  retryAfterMs?: number;
  /** What failed underneath (a socket error): kept for the log, never shown. */
  cause?: unknown;
}

export class ApiError extends Error {
  override name = 'ApiError';
  readonly status?: number;
  /** Service code: datastoreErrorCode, cloud v2 code, gateway code, ... */
  readonly code?: string;
  readonly details?: unknown;
  readonly retryAfterMs?: number;
  /**
   * True when an earlier attempt of this call may have been applied by the service (its answer was lost, or was an
   * error that does not say it was not applied), so this error may describe the state that attempt left.
   */
  afterLostAnswer = false;

  constructor(message: string, init: ApiErrorInit = {}) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.status = init.status;
    this.code = init.code;
    this.details = init.details;
    this.retryAfterMs = init.retryAfterMs;
  }
}

export class InvalidArgumentError extends ApiError {
  override name = 'InvalidArgumentError';
}
export class AuthError extends ApiError {
  override name = 'AuthError';
}
export class PermissionDeniedError extends ApiError {
  override name = 'PermissionDeniedError';
}
export class NotFoundError extends ApiError {
  override name = 'NotFoundError';
}

/** For `.catch`: a NotFoundError (no such entry, version or key) becomes `value`; any other error is thrown again. */
export const notFoundAs =
  <T>(value: T) =>
  (error: unknown): T => {
    if (error instanceof NotFoundError) return value;
    throw error;
  };
export class ConflictError extends ApiError {
  override name = 'ConflictError';
}
/** Create of an entry that already exists: cloud v2 answers 400, so this keeps that status and code. */
export class AlreadyExistsError extends ConflictError {
  override name = 'AlreadyExistsError';
}
/**
 * A write the client refused to send: the universe it writes to is read-only (or, for an asset, a universe of the
 * connection is, since assets are shared by every universe of a connection). Thrown before anything is sent.
 */
export class WriteRefusedError extends ApiError {
  override name = 'WriteRefusedError';
  /** The read-only universe; absent for a refused asset write that names no single one. */
  readonly universeId?: number;
  constructor(message: string, universeId?: number) {
    super(message);
    this.universeId = universeId;
  }
}
/** A call the API version in use cannot make (a snapshot through v1); thrown before anything is sent. */
export class UnsupportedError extends ApiError {
  override name = 'UnsupportedError';
}
/** A name cloud v2 cannot carry in a path (a key with `/`): the call must go through v1. */
export class NeedsV1Error extends UnsupportedError {
  override name = 'NeedsV1Error';
}
export class RateLimitedError extends ApiError {
  override name = 'RateLimitedError';
}
/** A 429 from a memory store call: the universe's memory, item count or request units are used up (U17). */
export class QuotaExceededError extends RateLimitedError {
  override name = 'QuotaExceededError';
}
/**
 * A conditional sorted map write or delete whose etag no longer matched (409 or 412, U11): another writer changed the
 * item. `current` is the item as re-read after the refusal; undefined when it is gone or could not be read.
 */
export class EtagMismatchError extends ConflictError {
  override name = 'EtagMismatchError';
  current?: SortedMapItem;
}
export class ServerError extends ApiError {
  override name = 'ServerError';
}
export class NetworkError extends ApiError {
  override name = 'NetworkError';
}
/** The call did not finish within the client's timeout (its whole answer, not each piece of it). */
export class TimeoutError extends ApiError {
  override name = 'TimeoutError';
}
/** The answer was larger than the client reads for this call; the rest was not read and the connection closed. */
export class ResponseTooLargeError extends ApiError {
  override name = 'ResponseTooLargeError';
}

/** 412 from Set Entry: matchVersion did not match, or exclusiveCreate hit an existing key. */
export class PreconditionFailedError extends ApiError {
  override name = 'PreconditionFailedError';
  /** The current entry's metadata, when the service sent its headers. */
  current?: EntryMetadata;
}

/** A response whose body does not have the shape the client expects. */
export class ResponseShapeError extends ApiError {
  override name = 'ResponseShapeError';
  /** Path of the offending field, e.g. `datastores[0].name`. */
  readonly field: string;
  constructor(message: string, field: string, init: ApiErrorInit = {}) {
    super(message, init);
    this.field = field;
  }
}

export class OperationFailedError extends ApiError {
  override name = 'OperationFailedError';
  readonly operationStatus: OperationStatus;
  constructor(operationPath: string, status: OperationStatus) {
    super(`Operation ${operationPath} failed: ${status.message} (code ${status.code})`, {
      code: String(status.code),
      details: status.details,
    });
    this.operationStatus = status;
  }
}

export class OperationTimeoutError<Op = Operation> extends ApiError {
  override name = 'OperationTimeoutError';
  /** The last state seen, when a poll succeeded before the deadline. */
  readonly lastSeen?: Op;
  constructor(operationPath: string, timeoutMs: number, lastSeen?: Op) {
    super(`Operation ${operationPath} was not done after ${timeoutMs} ms`);
    this.lastSeen = lastSeen;
  }
}

const CLASS_BY_STATUS: Record<number, typeof ApiError> = {
  400: InvalidArgumentError,
  401: AuthError,
  403: PermissionDeniedError,
  404: NotFoundError,
  409: ConflictError,
  412: PreconditionFailedError,
  429: RateLimitedError,
};

const DEFAULT_MESSAGES: Record<number, string> = {
  400: 'The request was not valid.',
  401: 'The API key is missing, invalid or expired.',
  403: 'The API key is not allowed to do this.',
  404: 'Not found.',
  409: 'The request conflicted with another change.',
  412: 'The entry has changed or already exists (matchVersion or exclusiveCreate did not hold).',
  429: 'Too many requests.',
};

/** What to say when the body gives no message. */
export function defaultMessage(status: number): string {
  return DEFAULT_MESSAGES[status] ?? (status >= 500 ? 'The service failed.' : `HTTP ${status}`);
}

export function errorClassFor(status: number): typeof ApiError {
  return CLASS_BY_STATUS[status] ?? (status >= 500 ? ServerError : ApiError);
}

/** The error an aborted call rejects with: the signal's reason when it is an AbortError, else a new one. */
export function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error && reason.name === 'AbortError') return reason;
  const err = new Error('The operation was aborted', { cause: reason });
  err.name = 'AbortError';
  return err;
}

/** True for an abort (an AbortSignal fired): the caller cancelled, nothing failed. */
export const isAbort = (error: unknown): boolean => error instanceof Error && error.name === 'AbortError';

export interface ErrorBody {
  message?: string;
  code?: string;
  details?: unknown;
}

const str = (v: unknown): string | undefined =>
  typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : undefined;

/**
 * Reads the message and service code out of any of the error body families the service uses:
 * data stores `{error, message, errorDetails:[{datastoreErrorCode}]}`, cloud v2 `{code, message, details}`,
 * gateway `{errors:[{code, message}]}`, assets `{code, message}` or ASP.NET `{errors:{field:[msgs]}, title}`,
 * and plain text.
 */
export function parseErrorBody(body: Buffer): ErrorBody {
  const text = body.toString('utf8').trim();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { message: text || undefined };
  }
  // A JSON value that is not an object is no error body (a 412 from Set Entry carries the current value).
  if (!isRecord(json)) return {};

  if (Array.isArray(json.errorDetails) || typeof json.error === 'string') {
    const detail = (json.errorDetails as unknown[] | undefined)?.find(
      (d) => isRecord(d) && typeof d.datastoreErrorCode === 'string',
    ) as Record<string, unknown> | undefined;
    return {
      message: str(json.message),
      code: str(detail?.datastoreErrorCode) ?? str(json.error) ?? str(json.code),
      details: json.errorDetails,
    };
  }
  if (Array.isArray(json.errors)) {
    const items = json.errors.filter(isRecord);
    const messages = items.map((e) => str(e.message)).filter((m): m is string => !!m);
    return { message: messages.join('; ') || undefined, code: str(items[0]?.code), details: json.errors };
  }
  if (isRecord(json.errors)) {
    const fields = Object.entries(json.errors).map(
      ([field, msgs]) => `${field}: ${Array.isArray(msgs) ? msgs.join(' ') : String(msgs)}`,
    );
    const title = str(json.title);
    return {
      message: [title, ...fields].filter(Boolean).join(' ') || undefined,
      details: json.errors,
    };
  }
  return {
    message: str(json.message) ?? str(json.title),
    code: str(json.code),
    details: json.details,
  };
}
