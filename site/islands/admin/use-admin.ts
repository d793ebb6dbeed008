/**
 * Admin session state for admin islands: 'loading' until the current-user check ends, then 'admin',
 * 'anonymous' or 'forbidden'. Islands render their content only for 'admin'; AdminGuard does the redirects.
 */
import { useSession } from '../ui/use-session.ts';

export type AdminAccess = 'loading' | 'admin' | 'anonymous' | 'forbidden';

export function useAdminAccess(): AdminAccess {
  const { user, isLoading } = useSession();
  if (isLoading) return 'loading';
  if (!user) return 'anonymous';
  return user.role === 'admin' ? 'admin' : 'forbidden';
}
