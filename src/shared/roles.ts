import type { UserRole } from './constants';

/**
 * What a staff member may do (issue 33, decision 042). The spec's `role` (admin or employee) stays the
 * contract and says which area a person works in; it follows from the team role:
 * Owner and Office work in the back office (admin), Crew lead and Crew in the crew's app (employee).
 */
export const TEAM_ROLES = ['owner', 'office', 'crew_lead', 'crew'] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];

export const TEAM_ROLE_LABELS: Record<TeamRole, string> = {
  owner: 'Owner',
  office: 'Office',
  crew_lead: 'Crew lead',
  crew: 'Crew',
};

/** One line each, for the user form and the Users list. */
export const TEAM_ROLE_DESCRIPTIONS: Record<TeamRole, string> = {
  owner: 'Everything, including users, settings, backups and the activity trail',
  office: 'Requests, quotes, clients, calendar, jobs, invoices, payments and reports',
  crew_lead: 'Their visits and their helpers’, and adds helpers to their visits',
  crew: 'Their own visits and job records',
};

/** The spec's role for a team role: the area the person signs in to. */
export function areaOf(teamRole: TeamRole): UserRole {
  return teamRole === 'owner' || teamRole === 'office' ? 'admin' : 'employee';
}

/** The team role a spec-only caller means by `role` (an admin is an owner, as the migration made them). */
export function teamRoleOf(role: UserRole): TeamRole {
  return role === 'admin' ? 'owner' : 'crew';
}

/**
 * Who may call a route or open a screen: everyone, any signed-in staff member, the back office (Owner
 * and Office), or the Owner alone (users, settings, backups, the trail, the system, API keys).
 */
export type Access = 'public' | 'staff' | 'office' | 'owner';

export function allows(access: Access, teamRole: TeamRole | null | undefined): boolean {
  if (access === 'public') return true;
  if (!teamRole) return false;
  if (access === 'staff') return true;
  if (access === 'office') return teamRole === 'owner' || teamRole === 'office';
  return teamRole === 'owner';
}

/** The refusal a signed-in person gets for a route their role may not call. */
export const REFUSALS: Record<'office' | 'owner', string> = {
  office: 'This needs an Owner or Office account',
  owner: 'This needs the Owner’s account',
};
