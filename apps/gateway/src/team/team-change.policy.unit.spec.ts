import { MAX_TEAM_SIZE, NOT_AN_OWNER, NOT_ON_TEAM, NOT_YOURSELF, refuseTeamAddition, refuseTeamChange, TEAM_FULL, type TeamMember } from './team-change.policy';

// The rule is the same for a role change (to any role, owner included) and a removal: who acts on whom.
const owner: TeamMember = { id: 'usr_owner', role: 'owner' };
const viewer: TeamMember = { id: 'usr_viewer', role: 'viewer' };
const coOwner: TeamMember = { id: 'usr_coowner', role: 'owner' };

describe('team change policy', () => {
  it('given an owner and a viewer, when the owner changes the viewer, then it is allowed', () => {
    expect(refuseTeamChange([owner, viewer], owner.id, viewer.id)).toBeUndefined();
  });

  it('given two owners, when one changes the other, then it is allowed: the actor stays an owner', () => {
    expect(refuseTeamChange([owner, coOwner], owner.id, coOwner.id)).toBeUndefined();
  });

  it('given an owner, sole or not, when they change themself, then it is refused: so the merchant always keeps an owner', () => {
    expect(refuseTeamChange([owner, viewer], owner.id, owner.id)).toBe(NOT_YOURSELF);
    expect(refuseTeamChange([owner, coOwner], owner.id, owner.id)).toBe(NOT_YOURSELF);
  });

  it('given a user of another merchant (not on this team), when changed, then it is not found', () => {
    expect(refuseTeamChange([owner, viewer], owner.id, 'usr_elsewhere')).toBe(NOT_ON_TEAM);
  });

  it('given an actor demoted or removed meanwhile (as the locked team says), when they change anyone, then it is refused: no owner made by one who no longer is one', () => {
    const demotedActor: TeamMember = { id: owner.id, role: 'administrator' };
    expect(refuseTeamChange([demotedActor, coOwner, viewer], owner.id, viewer.id)).toBe(NOT_AN_OWNER);
    expect(refuseTeamChange([demotedActor, coOwner], owner.id, coOwner.id)).toBe(NOT_AN_OWNER);
    expect(refuseTeamChange([coOwner, viewer], owner.id, viewer.id)).toBe(NOT_AN_OWNER);
  });

  it('given an owner, when they add a user, then it is allowed; given an actor demoted or removed meanwhile, then it is refused', () => {
    expect(refuseTeamAddition([owner, viewer], owner.id)).toBeUndefined();
    expect(refuseTeamAddition([{ id: owner.id, role: 'administrator' }, coOwner], owner.id)).toBe(NOT_AN_OWNER);
    expect(refuseTeamAddition([coOwner, viewer], owner.id)).toBe(NOT_AN_OWNER);
  });

  it('given a team at its size limit, when an owner adds a user, then it is refused as full; one fewer and it is allowed', () => {
    const members = (count: number): TeamMember[] => [owner, ...Array.from({ length: count - 1 }, (_, i): TeamMember => ({ id: `usr_${i}`, role: 'viewer' }))];
    expect(refuseTeamAddition(members(MAX_TEAM_SIZE), owner.id)).toBe(TEAM_FULL);
    expect(refuseTeamAddition(members(MAX_TEAM_SIZE - 1), owner.id)).toBeUndefined();
  });

  it('given no acting user named, when a user is added, then only the size counts', () => {
    expect(refuseTeamAddition([coOwner, viewer], undefined)).toBeUndefined();
  });
});
