/** GET /api/users/current (000 §7): the account area's first call, also sent early by main.tsx. */
export const CURRENT_USER_ENDPOINT = '/api/users/current';
