export function buildAll(options?: { quiet?: boolean }): Promise<void>;
export function isBuildStale(): boolean;
export function bundleServer(entries: Record<string, string>, outdir: string, quiet?: boolean): Promise<void>;
