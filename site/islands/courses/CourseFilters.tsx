/**
 * Catalogue search and filters (spec §2 /courses): case-insensitive search on name/title and description,
 * department and level filters, kept in the URL query (issue #3). Filters the pre-rendered cards in place,
 * so the page works without JavaScript and ships no course data twice.
 */
import { useEffect, useState } from 'react';
import { levelLabel } from '../../lib/format.ts';

interface Props { departments: string[]; levels: string[]; total: number }

function readQuery() {
  const p = new URLSearchParams(window.location.search);
  return { q: p.get('q') ?? '', department: p.get('department') ?? 'all', level: p.get('level') ?? 'all' };
}

export default function CourseFilters({ departments, levels, total }: Props) {
  const [state, setState] = useState({ q: '', department: 'all', level: 'all' });
  const [shown, setShown] = useState(total);

  useEffect(() => { setState(readQuery()); }, []);

  useEffect(() => {
    const term = state.q.trim().toLowerCase();
    let count = 0;
    document.querySelectorAll<HTMLElement>('[data-course-card]').forEach((card) => {
      const d = card.dataset;
      const match = (!term || d.title!.includes(term) || d.description!.includes(term))
        && (state.department === 'all' || d.department === state.department)
        && (state.level === 'all' || d.level === state.level);
      card.hidden = !match;
      if (match) count++;
    });
    setShown(count);
    const empty = document.getElementById('course-empty');
    if (empty) empty.hidden = count !== 0;
    const p = new URLSearchParams();
    if (state.q) p.set('q', state.q);
    if (state.department !== 'all') p.set('department', state.department);
    if (state.level !== 'all') p.set('level', state.level);
    const qs = p.toString();
    window.history.replaceState(null, '', `${window.location.pathname}${qs ? `?${qs}` : ''}`);
  }, [state]);

  return (
    <div>
      <form role="search" className="grid gap-4 sm:grid-cols-3" onSubmit={(e) => e.preventDefault()}>
        <div>
          <label htmlFor="course-search" className="label">Search courses</label>
          <input id="course-search" type="search" className="input" placeholder="Search by name or description" value={state.q}
            onChange={(e) => setState({ ...state, q: e.target.value })} />
        </div>
        <div>
          <label htmlFor="course-department" className="label">Department</label>
          <select id="course-department" className="input" value={state.department} onChange={(e) => setState({ ...state, department: e.target.value })}>
            <option value="all">All Departments</option>
            {departments.map((d) => <option key={d} value={d}>{d}</option>)}
          </select>
        </div>
        <div>
          <label htmlFor="course-level" className="label">Level</label>
          <select id="course-level" className="input" value={state.level} onChange={(e) => setState({ ...state, level: e.target.value })}>
            <option value="all">All Levels</option>
            {levels.map((l) => <option key={l} value={l}>{levelLabel(l)}</option>)}
          </select>
        </div>
      </form>
      <p className="mt-4 text-sm muted" aria-live="polite">Showing {shown} of {total} courses</p>
    </div>
  );
}
