/** Course options for the registration forms: GET /api/courses once, with loading and error states. */
import { useEffect, useState } from 'react';
import { api } from '../../lib/api-client.ts';
import { levelLabel } from '../../lib/format.ts';

export interface CourseOption { id: number; label: string }

export function useCourseOptions(): { courses: CourseOption[]; loading: boolean; failed: boolean } {
  const [state, setState] = useState<{ courses: CourseOption[]; loading: boolean; failed: boolean }>({ courses: [], loading: true, failed: false });
  useEffect(() => {
    let live = true;
    api<{ courses: { id: number; name?: string; title?: string; level?: string }[] }>('/api/courses')
      .then((r) => live && setState({ loading: false, failed: false, courses: r.courses.map((c) => ({ id: c.id, label: `${c.name || c.title || 'Course Title'} (${levelLabel(c.level)})` })) }))
      .catch(() => live && setState({ courses: [], loading: false, failed: true }));
    return () => { live = false; };
  }, []);
  return state;
}
