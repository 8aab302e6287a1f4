import { createContext, useContext } from 'react';
import { allows, type Access, type TeamRole } from '#shared/roles';

/**
 * The signed-in person's team role, as the staff's route guard confirmed it (decision 042); undefined
 * outside it. Here, below the features, so that any screen can show only what the role may do.
 */
export const TeamRoleContext = createContext<TeamRole | undefined>(undefined);
export const useTeamRole = () => useContext(TeamRoleContext);

/** Whether the signed-in person's role may do this: the screens show only what it may. */
export const useMay = (access: Access) => allows(access, useTeamRole());
