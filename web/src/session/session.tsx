import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from 'react';
import { ApiError, apiGet, onSessionExpired } from '../api/client';
import { keys } from '../api/keys';
import type { Account, Permission } from '../api/models';

interface Session {
  account: Account;
  /** The department every write names (docs/design.md section 2). */
  departmentId: string;
  isAdmin: boolean;
  /** The service operator: loads and replaces the classification releases every company shares. */
  isOperator: boolean;
}

const SessionContext = createContext<Session | null>(null);

/** The signed-in account; only inside the authenticated part of the app. */
export function useSession(): Session {
  const ctx = useContext(SessionContext);
  if (!ctx) throw new Error('useSession outside SessionProvider');
  return ctx;
}

/**
 * Whether the member's role permits `permission` (Account/Me `permissions`, docs/teams.md): the
 * screens hide the controls of what the role may not do. A convenience only: the server checks
 * every request.
 */
export function useMay(permission: Permission): boolean {
  return useSession().account.permissions.includes(permission);
}

/** "Who am I": the account, or null without a session (a 401 here is not an expiry). */
export const meQuery = () =>
  queryOptions({
    queryKey: keys.me,
    queryFn: async () => {
      try {
        return await apiGet('Account/Me', undefined, { quietAuth: true });
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) return null;
        throw error;
      }
    },
    staleTime: 5 * 60_000,
  });

export function useMe() {
  return useQuery(meQuery());
}

/** Tracks whether an authenticated call has just been refused with 401 (session expired). */
export function useSessionExpired(): [boolean, () => void] {
  const [expired, setExpired] = useState(false);
  useEffect(() => onSessionExpired(() => setExpired(true)), []);
  const clear = useCallback(() => setExpired(false), []);
  return [expired, clear];
}

export function SessionProvider({ account, children }: { account: Account; children: ReactNode }) {
  const value: Session = {
    account,
    departmentId: account.departmentId,
    isAdmin: account.role === 'admin',
    isOperator: account.operator,
  };
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

/** Back to the sign-in page: the "me" query (observed by App) becomes null, everything else is dropped. */
export function endSession(client: QueryClient): void {
  client.setQueryData(keys.me, null);
  client.removeQueries({ predicate: (q) => q.queryKey[0] !== keys.me[0] });
}
