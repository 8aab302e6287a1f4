export function buildAll(options?: { quiet?: boolean }): Promise<void>;
