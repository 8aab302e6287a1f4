import { z } from 'zod';

/** GET /api/account/two-step: whether the signed-in person's account has two-step sign-in. */
export const twoStepState = z.object({
  enabled: z.boolean(),
  since: z.string().nullable(),
  recoveryCodesLeft: z.number(),
  /** Settings require it of this account (Owner and Office): it cannot be turned off. */
  required: z.boolean(),
});
export type TwoStepState = z.infer<typeof twoStepState>;

/** POST /api/account/two-step/start: what the authenticator app scans, or types. */
export const twoStepEnrolment = z.object({
  /** Base32, for typing into the app when the camera cannot scan. */
  secret: z.string(),
  /** otpauth://totp/… */
  uri: z.string(),
  /** The same as a QR code, an SVG drawn by the server. */
  qrSvg: z.string(),
});
export type TwoStepEnrolment = z.infer<typeof twoStepEnrolment>;

export const twoStepCode = z.object({
  code: z.string().trim().min(1, 'Type the code').max(40),
});

export const twoStepDisable = z.object({
  password: z.string().min(1, 'Type your password').max(200),
  code: z.string().trim().min(1, 'Type the code').max(40),
});

/** POST /api/account/two-step/confirm: the ten recovery codes, shown this once. */
export const twoStepConfirmed = z.object({ recoveryCodes: z.array(z.string()) });
export type TwoStepConfirmed = z.infer<typeof twoStepConfirmed>;
