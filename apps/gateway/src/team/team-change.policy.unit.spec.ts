import { LAST_OWNER, NOT_ON_TEAM, NOT_YOURSELF, refuseTeamChange, type TeamMember } from './team-change.policy';

const owner: TeamMember = { id: 'usr_owner', role: 'owner' };
const viewer: TeamMember = { id: 'usr_viewer', role: 'viewer' };
const coOwner: TeamMember = { id: 'usr_coowner', role: 'owner' };

describe('team change policy', () => {
  it('given an owner and a viewer, when the owner makes the viewer an administrator or removes them, then it is allowed', () => {
    expect(refuseTeamChange([owner, viewer], owner.id, viewer.id, { kind: 'set-role', role: 'administrator' })).toBeUndefined();
    expect(refuseTeamChange([owner, viewer], owner.id, viewer.id, { kind: 'remove' })).toBeUndefined();
  });

  it('given an owner, when they remove themself or change their own role, then it is refused', () => {
    expect(refuseTeamChange([owner, coOwner], owner.id, owner.id, { kind: 'remove' })).toBe(NOT_YOURSELF);
    expect(refuseTeamChange([owner, coOwner], owner.id, owner.id, { kind: 'set-role', role: 'viewer' })).toBe(NOT_YOURSELF);
  });

  it('given a user of another merchant (not on this team), when changed, then it is not found', () => {
    expect(refuseTeamChange([owner, viewer], owner.id, 'usr_elsewhere', { kind: 'remove' })).toBe(NOT_ON_TEAM);
  });

  it('given two owners, when one demotes or removes the other, then it is allowed; a change that would leave no owner is refused', () => {
    expect(refuseTeamChange([owner, coOwner], owner.id, coOwner.id, { kind: 'set-role', role: 'developer' })).toBeUndefined();
    expect(refuseTeamChange([owner, coOwner], owner.id, coOwner.id, { kind: 'remove' })).toBeUndefined();
    // The actor's own role was changed meanwhile (read under lock): the last owner stays.
    const demotedActor: TeamMember = { id: owner.id, role: 'administrator' };
    expect(refuseTeamChange([demotedActor, coOwner], owner.id, coOwner.id, { kind: 'remove' })).toBe(LAST_OWNER);
  });

  it('given a viewer, when an owner makes them a co-owner, then it is allowed', () => {
    expect(refuseTeamChange([owner, viewer], owner.id, viewer.id, { kind: 'set-role', role: 'owner' })).toBeUndefined();
  });
});
