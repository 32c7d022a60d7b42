import { useState } from 'react';
import type { AddedTeamUserView, DashboardPrincipal, DashboardRole, TeamUserView } from '@pp/contracts';
import { api } from './api';
import { useIdempotentPost } from './idempotent-post';
import { ShownOnce } from './shown-once';
import { formatDate, useI18n } from './i18n';
import { ActionButton, States, useLoad, useSubmit } from './ui';

const ROLES: DashboardRole[] = ['owner', 'administrator', 'developer', 'viewer'];
const ADDABLE: DashboardRole[] = ['administrator', 'developer', 'viewer'];

/** The owner's Team page: the merchant's users, a new user (password shown once), role changes and removal; the server enforces every rule. */
export function TeamPage({ user }: { user: DashboardPrincipal }) {
  const { t } = useI18n();
  const loaded = useLoad(() => api<{ users: TeamUserView[] }>('/api/team/users'), 'team');
  const [form, setForm] = useState({ email: '', role: 'viewer' });
  const [added, setAdded] = useState<AddedTeamUserView>();
  const post = useIdempotentPost();
  const add = useSubmit(async () => {
    setAdded(await post<AddedTeamUserView>('/api/team/users', form));
    setForm({ email: '', role: 'viewer' });
    await loaded.reload();
  });
  return (
    <section aria-labelledby="team-title">
      <h1 id="team-title">{t.team}</h1>
      <States loaded={loaded} isEmpty={(data) => data.users.length === 0}>
        {(data) => (
          <table>
            <thead>
              <tr>
                <th scope="col">{t.email}</th>
                <th scope="col">{t.role}</th>
                <th scope="col">{t.created}</th>
                <th scope="col">{t.lastSignIn}</th>
                <th scope="col"><span className="visually-hidden">{t.removeUser}</span></th>
              </tr>
            </thead>
            <tbody>
              {data.users.map((member) => (
                <TeamRow key={member.id} member={member} isSelf={member.id === user.id} done={loaded.reload} />
              ))}
            </tbody>
          </table>
        )}
      </States>
      <h2>{t.addUser}</h2>
      <form className="actions add-user" onSubmit={add.onSubmit}>
        <label>
          {t.email}
          <input type="email" name="email" required value={form.email} onChange={(event) => setForm({ ...form, email: event.target.value })} />
        </label>
        <label>
          {t.role}
          <select name="role" value={form.role} onChange={(event) => setForm({ ...form, role: event.target.value })}>
            {ADDABLE.map((role) => (
              <option key={role} value={role}>{t[`role_${role}`]}</option>
            ))}
          </select>
        </label>
        <button type="submit" disabled={add.busy} aria-busy={add.busy}>{add.busy ? t.working : t.addUser}</button>
        {add.error !== undefined ? <span role="alert" className="error">{add.error}</span> : null}
      </form>
      {added ? <ShownOnce label={`${t.newUserPassword} ${added.email}`} secret={added.password} onClose={() => setAdded(undefined)} /> : null}
    </section>
  );
}

function TeamRow({ member, isSelf, done }: { member: TeamUserView; isSelf: boolean; done: () => Promise<void> }) {
  const { t, language } = useI18n();
  const [role, setRole] = useState(member.role);
  const remove = async () => {
    if (!window.confirm(`${t.removeConfirm} ${member.email}`)) return;
    await api(`/api/team/users/${encodeURIComponent(member.id)}`, { method: 'DELETE' });
    await done();
  };
  const changeRole = () => api(`/api/team/users/${encodeURIComponent(member.id)}`, { method: 'PATCH', body: { role } }).then(done);
  return (
    <tr data-user-id={member.id}>
      <td className="user-email">{member.email}{isSelf ? <span className="muted"> ({t.you})</span> : null}</td>
      <td>
        {isSelf ? (
          t[`role_${member.role}`]
        ) : (
          <span className="actions">
            <label>
              <span className="visually-hidden">{`${t.role} ${member.email}`}</span>
              <select value={role} onChange={(event) => setRole(event.target.value as DashboardRole)}>
                {ROLES.map((value) => (
                  <option key={value} value={value}>{t[`role_${value}`]}</option>
                ))}
              </select>
            </label>
            <ActionButton label={t.changeRole} of={member.email} run={changeRole} disabled={role === member.role} />
          </span>
        )}
      </td>
      <td>{formatDate(member.created_at, language)}</td>
      <td>{member.last_sign_in_at ? formatDate(member.last_sign_in_at, language) : t.never}</td>
      <td>{isSelf ? null : <ActionButton label={t.removeUser} of={member.email} run={remove} />}</td>
    </tr>
  );
}
