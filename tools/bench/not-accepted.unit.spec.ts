import { checkAccepted, NO_ANSWER } from './not-accepted';

describe("the ingest path's notices the gateway did not accept", () => {
  it('given every posted notice refused (a wrong INGEST_TOKEN), then the path fails, naming the status', () => {
    expect(() => checkAccepted({ '401': 1000 }, 1000, 'the timed notices')).toThrow(
      'the timed notices: all of 1000 posted notices not accepted (more than 1 % fails the path): 1000 answered 401',
    );
  });

  it('given more than 1 % not accepted, then the path fails, naming each status counted, the commonest first', () => {
    expect(() => checkAccepted({ [NO_ANSWER]: 4, '500': 7 }, 1000, 'the warm-up notices')).toThrow(
      'the warm-up notices: 11 of 1000 posted notices not accepted (more than 1 % fails the path): 7 answered 500, 4 with no answer',
    );
  });

  it('given none, or up to 1 %, not accepted, then the path goes on (they are counted in its detail, with a warning)', () => {
    expect(() => checkAccepted({}, 1000, 'the timed notices')).not.toThrow();
    expect(() => checkAccepted({ '503': 10 }, 1000, 'the timed notices')).not.toThrow();
  });
});
