import { NOT_AN_OWNER, NOT_ON_TEAM, NOT_YOURSELF, refuseTeamChange, type TeamMember } from './team-change.policy';

const owner: TeamMember = { id: 'usr_owner', role: 'owner' };
const viewer: TeamMember = { id: 'usr_viewer', role: 'viewer' };
const coOwner: TeamMember = { id: 'usr_coowner', role: 'owner' };

describe('team change policy', () => {
  it('given an owner and a viewer, when the owner makes the viewer an administrator or removes them, then it is allowed', () => {
    expect(refuseTeamChange([owner, viewer], owner.id, viewer.id)).toBeUndefined();
    expect(refuseTeamChange([owner, viewer], owner.id, viewer.id)).toBeUndefined();
  });

  it('given an owner, when they remove themself or change their own role, then it is refused', () => {
    expect(refuseTeamChange([owner, coOwner], owner.id, owner.id)).toBe(NOT_YOURSELF);
    expect(refuseTeamChange([owner, coOwner], owner.id, owner.id)).toBe(NOT_YOURSELF);
  });

  it('given a user of another merchant (not on this team), when changed, then it is not found', () => {
    expect(refuseTeamChange([owner, viewer], owner.id, 'usr_elsewhere')).toBe(NOT_ON_TEAM);
  });

  it('given two owners, when one demotes or removes the other, then it is allowed: the actor stays an owner', () => {
    expect(refuseTeamChange([owner, coOwner], owner.id, coOwner.id)).toBeUndefined();
    expect(refuseTeamChange([owner, coOwner], owner.id, coOwner.id)).toBeUndefined();
  });

  it('given a sole owner, when they would remove or demote themself, then it is refused: the merchant keeps an owner', () => {
    expect(refuseTeamChange([owner, viewer], owner.id, owner.id)).toBe(NOT_YOURSELF);
    expect(refuseTeamChange([owner, viewer], owner.id, owner.id)).toBe(NOT_YOURSELF);
  });

  it('given an actor demoted or removed meanwhile (as the locked team says), when they change anyone, then it is refused: no owner made by one who no longer is one', () => {
    const demotedActor: TeamMember = { id: owner.id, role: 'administrator' };
    expect(refuseTeamChange([demotedActor, coOwner, viewer], owner.id, viewer.id)).toBe(NOT_AN_OWNER);
    expect(refuseTeamChange([demotedActor, coOwner], owner.id, coOwner.id)).toBe(NOT_AN_OWNER);
    expect(refuseTeamChange([coOwner, viewer], owner.id, viewer.id)).toBe(NOT_AN_OWNER);
  });

  it('given a viewer, when an owner makes them a co-owner, then it is allowed', () => {
    expect(refuseTeamChange([owner, viewer], owner.id, viewer.id)).toBeUndefined();
  });
});
