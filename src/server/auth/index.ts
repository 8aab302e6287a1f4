// The auth feature's public entry: sign-in, sessions and the access guard every /api route goes through.
export { authRoutes } from './routes';
export { registerAuth, type Access } from './guard';
