// The figures feature's public entry: one version for every figure the owner reads (the dashboard,
// Reports, Needs you today, the invoice list's counts), and the cache it validates.
export { cachedFigures } from './cache';
