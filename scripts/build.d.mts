export function buildAll(options?: { quiet?: boolean }): Promise<void>;
export function isBuildStale(): boolean;
