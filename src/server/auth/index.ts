// The auth feature's public entry: sign-in, sessions and the access guard every /api route goes through.
export { authRoutes } from './routes';
export { twoStepRoutes } from './two-step-routes';
export { sessionRoutes } from './session-routes';
export { apiKeyRoutes } from './api-key-routes';
export { hasTwoStep, removeTwoStep } from './two-step';
export { registerAuth, type Access } from './guard';
