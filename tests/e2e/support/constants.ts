export const E2E_ADMIN = { username: 'owner', password: 'e2e-owner-password' };
