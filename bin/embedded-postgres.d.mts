export declare const CACHE_ROOT: string;
export declare const DATA_ROOT: string;
export declare class EmbeddedPostgresError extends Error {}
export interface StartedPostgres {
  /** The data directory in use (another one than asked for when the postgres user cannot reach that one). */
  dataDir: string;
  pid: number | undefined;
  stop(): Promise<void>;
}
export declare function startPostgres(options: {
  dataDir: string;
  port: number;
  user?: string;
  password?: string;
  flags?: string[];
  persistent?: boolean;
  notice?: (line: string) => void;
  onLog?: (text: string) => void;
}): Promise<StartedPostgres>;
