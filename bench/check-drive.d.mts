/** Types of check-drive.mjs for the TypeScript that imports it (tests). */
/** One drive's figures, as bench/check.mjs reports them. */
export interface DriveResult {
  requests_per_sec: number;
  latency_p50_ms: number;
  latency_p99_ms: number;
  latency_max_ms: number;
  requests: number;
  non_2xx: number;
  errors: number;
  cpu_us_per_request?: number;
  client_cpu_us_per_request: number;
  machine_cpu_us_per_request: number;
}

/** A GET path, or a GET path with its headers (the Expo scenario). */
export type DrivePath = string | { path: string; headers?: Record<string, string> };

export function makeDrive(
  connections: number,
): (
  url: string,
  bodies: string[] | undefined,
  seconds: number | undefined,
  amount?: number,
  pid?: number,
  paths?: DrivePath[],
) => Promise<DriveResult>;

/** Several drives in alternating slices: each side's figures over all its slices, and each slice's. */
export function alternate<R extends DriveResult>(
  seconds: number,
  sides: Array<(seconds: number) => Promise<R>>,
  sliceSeconds?: number,
): Promise<{ combined: DriveResult[]; slices: R[][] }>;

/** One drive's figures from those of its slices. */
export function combineDrives(results: DriveResult[]): DriveResult;

export function sampleOutcomes(
  url: string,
  bodies: string[],
  n?: number,
): Promise<{ update: number; none: number; other: number }>;
