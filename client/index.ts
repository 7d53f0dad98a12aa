export { type ClientOptions, OtaClient } from './client.js';
export { ApiError, NetworkError, type ProblemBody } from './errors.js';
export { DEFAULT_RETRY, type RetryPolicy } from './retry.js';
export { type Credentials, type FetchLike, type RawBody, Transport } from './transport.js';
export * from './types.js';
