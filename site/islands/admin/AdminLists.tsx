/**
 * /admin/profile, /admin/messages and /admin/bookings (issue #6): the signed-in admin's details, contact
 * messages (GET /api/admin/contact-messages) and assessment bookings (GET /api/admin/assessment-bookings).
 */
import { formatStaffDateTime } from '../../lib/format.ts';
import { formatPhone } from '../../lib/phone.ts';
import { useEffect, useState } from 'react';
import { useStore } from '@nanostores/react';
import { useSession } from '../ui/use-session.ts';
import { useAdminAccess } from './use-admin.ts';
import { $assessmentBookings, $assessmentBookingsQuery, $contactMessages, $contactMessagesQuery } from './admin-stores.ts';
import { useLastData } from '../ui/use-last-data.ts';
import { Pager } from '../ui/Pager.tsx';

const PAGE_SIZE = 25;
import { AccessGate, Empty } from './admin-ui.tsx';
import { ErrorState } from '../ui/ErrorState.tsx';
import { SkeletonRows } from '../ui/SkeletonRows.tsx';

/** /admin/profile: the signed-in admin's name, e-mail, phone, role and since when, with a link to edit them. */
export function AdminProfile() {
  const access = useAdminAccess();
  const { user } = useSession();
  return (
    <AccessGate access={access}>
      <h1 className="mb-4 text-2xl font-bold">Profile</h1>
      {user && (
        <div className="card max-w-xl p-6">
          <dl className="grid grid-cols-[6rem_minmax(0,1fr)] gap-y-2 text-sm wrap-anywhere sm:grid-cols-[8rem_minmax(0,1fr)]">
            <dt className="muted">Name</dt><dd>{user.firstName} {user.lastName}</dd>
            <dt className="muted">E-mail</dt><dd>{user.email}</dd>
            <dt className="muted">Phone</dt><dd>{formatPhone(user.phone) || 'Not given'}</dd>
            <dt className="muted">Role</dt><dd>Admin</dd>
            <dt className="muted">Since</dt><dd>{formatStaffDateTime(user.createdAt)}</dd>
          </dl>
          <a href="/profile" className="btn-secondary mt-4 whitespace-normal text-center">Edit profile or change password</a>
        </div>
      )}
    </AccessGate>
  );
}

/** /admin/messages: contact-form messages, newest first, 25 a page with 'Showing X–Y of Z'. */
export function MessagesList() {
  const access = useAdminAccess();
  return <AccessGate access={access}><Messages /></AccessGate>;
}
function Messages() {
  const [page, setPage] = useState(1);
  useEffect(() => { $contactMessagesQuery.set(`page=${page}&pageSize=${PAGE_SIZE}`); }, [page]);
  const list = useStore($contactMessages);
  const data = useLastData(list.data);
  const error = list.error;
  const items = data?.messages;
  const load = () => $contactMessages.revalidate();
  return (
    <section>
      <h1 className="mb-4 text-2xl font-bold">Contact messages</h1>
      {error ? <ErrorState message="Could not load contact messages." onRetry={load} /> : !items ? <SkeletonRows rows={4} label="Loading messages" />
        : items.length === 0 ? <Empty>No messages yet.</Empty> : (
          <ul className="space-y-3">{items.map((m) => (
            <li key={m.id} className="card p-4">
              <p className="font-semibold">{m.firstName} {m.lastName} <span className="text-sm font-normal muted">· {formatStaffDateTime(m.createdAt)}</span></p>
              <p className="text-sm"><a className="underline" href={`mailto:${m.email}`}>{m.email}</a>{m.phone && <> · {formatPhone(m.phone)}</>}</p>
              <p className="mt-2 whitespace-pre-line">{m.message}</p>
            </li>))}</ul>)}
      {data && <Pager page={data.page} pageSize={data.pageSize} total={data.total} busy={list.loading} onPage={setPage} label="Contact messages pages" />}
    </section>
  );
}

/** /admin/bookings: assessment-centre bookings as a table, newest first, 25 a page with 'Showing X–Y of Z'. */
export function BookingsList() {
  const access = useAdminAccess();
  return <AccessGate access={access}><Bookings /></AccessGate>;
}
function Bookings() {
  const [page, setPage] = useState(1);
  useEffect(() => { $assessmentBookingsQuery.set(`page=${page}&pageSize=${PAGE_SIZE}`); }, [page]);
  const list = useStore($assessmentBookings);
  const data = useLastData(list.data);
  const error = list.error;
  const items = data?.bookings;
  const load = () => $assessmentBookings.revalidate();
  return (
    <section>
      <h1 className="mb-4 text-2xl font-bold">Assessment bookings</h1>
      {error ? <ErrorState message="Could not load assessment bookings." onRetry={load} /> : !items ? <SkeletonRows rows={4} label="Loading bookings" />
        : items.length === 0 ? <Empty>No bookings yet.</Empty> : (
          <div className="card overflow-x-auto" tabIndex={0} role="region" aria-label="Assessment bookings">
            <table className="w-full text-sm">
              <caption className="sr-only">Assessment bookings</caption>
              <thead><tr className="text-left">{['Reference', 'Name', 'Contact', 'Campus', 'Assessment', 'Preferred', 'Received'].map((h) => <th key={h} scope="col" className="px-3 py-2">{h}</th>)}</tr></thead>
              <tbody>{items.map((b) => (
                <tr key={b.id} className="border-t border-slate-100 dark:border-slate-800">
                  <td className="px-3 py-2 font-mono">ASC-{b.id}</td><td className="px-3 py-2">{b.firstName} {b.lastName}</td>
                  <td className="px-3 py-2">{b.email}<span className="block muted">{formatPhone(b.phone)}</span></td><td className="px-3 py-2">{b.preferredCampus}</td>
                  <td className="px-3 py-2">{b.assessmentType}<span className="block muted">{b.courseInterest}</span></td>
                  <td className="px-3 py-2">{b.preferredDate} ({b.preferredTime})</td><td className="px-3 py-2">{formatStaffDateTime(b.createdAt)}</td>
                </tr>))}</tbody>
            </table>
          </div>)}
      {data && <Pager page={data.page} pageSize={data.pageSize} total={data.total} busy={list.loading} onPage={setPage} label="Assessment bookings pages" />}
    </section>
  );
}
