export declare function sourceHash(root?: string): string;
export declare function ensureBuilt(options?: {
  root?: string;
  log?: (line: string) => void;
  compile?: (root: string, outDir: string) => void | Promise<void>;
}): Promise<boolean>;
