/** Types of clickhouse-config.mjs for the TypeScript that imports it (the fault tests' private servers). */
export function writeClickhouseConfig(options?: {
  home?: string;
  httpPort?: number;
  tcpPort?: number;
  interserverPort?: number;
  cluster?: {
    name: string;
    shards: number[][];
    macros: Record<string, string>;
    zookeeperPort?: number;
  };
}): string;
