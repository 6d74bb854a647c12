import { z } from 'zod';

export const LoginDto = z.strictObject({
  email: z.string().trim().min(3).max(254),
  password: z.string().min(1).max(1024),
});

export const ChangePasswordDto = z.strictObject({
  currentPassword: z.string().min(1).max(1024),
  newPassword: z.string().min(12, 'newPassword must have at least 12 characters').max(1024),
});

export const SwitchDepartmentDto = z.strictObject({ departmentId: z.uuid() });

export const AccountDto = z.object({
  user: z.object({ userId: z.string(), email: z.string(), name: z.string() }),
  company: z.object({ companyId: z.string(), name: z.string() }),
  departmentId: z.string(),
  departments: z.array(z.object({ departmentId: z.string(), name: z.string() })),
  role: z.enum(['admin', 'editor']),
  companyCount: z.number().int(),
  aiMayEditClassifications: z.boolean(),
  /** The user is the service operator: may load and replace the classification releases every company shares. */
  operator: z.boolean(),
});

export const LoginResultDto = z.object({ userId: z.string(), expiresAt: z.string() });
export const OkDto = z.object({ ok: z.literal(true) });
/** Logout: `redirectUrl` only for a session opened through SSO whose provider offers sign-out (docs/sso.md). */
export const LogoutResultDto = OkDto.extend({ redirectUrl: z.url().optional() });

export const RevokeAiAccessDto = z.strictObject({ userId: z.uuid() });
export const RevokeAiAccessOut = z.object({ userId: z.string(), revoked: z.literal(true) });
export const SetAiSwitchDto = z.strictObject({ userId: z.uuid(), enabled: z.boolean() });
export const SetAiSwitchOut = z.object({ userId: z.string(), aiMayEditClassifications: z.boolean() });
export const UserListOut = z.object({
  items: z.array(
    z.object({
      userId: z.string(),
      email: z.string(),
      name: z.string(),
      role: z.enum(['admin', 'editor']),
      aiMayEditClassifications: z.boolean(),
    }),
  ),
});
