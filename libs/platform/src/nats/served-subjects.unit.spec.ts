import { SERVICE_NAMES, type SubjectAccess } from '@pp/contracts';
import { handlerMismatches, replyInboxes, REQUEST_REPLY_ACCESS } from './served-subjects';

const registry: Record<string, SubjectAccess> = {
  'sessions.create.v1': { servedBy: 'sessions', callers: ['gateway'] },
  'sessions.get.v1': { servedBy: 'sessions', callers: ['gateway'] },
  'ledger.append.v1': { servedBy: 'ledger', callers: ['sessions'] },
  'health.sessions': { servedBy: 'sessions', callers: ['gateway'] },
};

describe('the start-up check of a service’s bus handlers against the subject registry', () => {
  describe('given one handler for each subject the registry gives the service, and nothing else', () => {
    it('then it finds nothing wrong', () => {
      expect(handlerMismatches('sessions', ['health.sessions', 'sessions.get.v1', 'sessions.create.v1'], registry)).toEqual([]);
    });
  });

  describe('given a subject of the service without a handler', () => {
    it('then it names the subject', () => {
      expect(handlerMismatches('sessions', ['health.sessions', 'sessions.create.v1'], registry)).toEqual(['no handler for sessions.get.v1']);
    });
  });

  describe('given two handlers for one subject', () => {
    it('then it names the subject and how many handle it', () => {
      const patterns = ['health.sessions', 'sessions.get.v1', 'sessions.create.v1', 'sessions.create.v1'];
      expect(handlerMismatches('sessions', patterns, registry)).toEqual(['2 handlers for sessions.create.v1']);
    });
  });

  describe('given a handler for a subject the registry gives another service', () => {
    it('then it names the subject and its server', () => {
      const patterns = ['health.sessions', 'sessions.get.v1', 'sessions.create.v1', 'ledger.append.v1'];
      expect(handlerMismatches('sessions', patterns, registry)).toEqual(['a handler for ledger.append.v1, which the registry gives to ledger']);
    });
  });

  describe('given a handler for a subject the registry does not know (a typo, or a name an object already has)', () => {
    it('then it names each one', () => {
      const patterns = ['health.sessions', 'sessions.get.v1', 'sessions.create.v1', 'sessions.gett.v1', 'constructor'];
      expect(handlerMismatches('sessions', patterns, registry)).toEqual([
        'a handler for constructor, which is not in the subject registry',
        'a handler for sessions.gett.v1, which is not in the subject registry',
      ]);
    });
  });

  describe('given several problems at once', () => {
    it('then it lists them all, ordered by subject', () => {
      expect(handlerMismatches('sessions', ['sessions.get.v1', 'sessions.get.v1', 'ledger.append.v1'], registry)).toEqual([
        'no handler for health.sessions',
        'a handler for ledger.append.v1, which the registry gives to ledger',
        'no handler for sessions.create.v1',
        '2 handlers for sessions.get.v1',
      ]);
    });
  });

  describe('given the real registry', () => {
    it.each(SERVICE_NAMES)('then %s must serve its health subject, and exactly what the registry gives it', (service) => {
      const served = Object.entries(REQUEST_REPLY_ACCESS)
        .filter(([, access]) => access.servedBy === service)
        .map(([subject]) => subject);
      expect(served).toContain(`health.${service}`);
      expect(handlerMismatches(service, served)).toEqual([]);
      expect(handlerMismatches(service, served.slice(1))).toEqual([`no handler for ${served[0]}`]);
    });
  });
});

describe('where the answer to a request may go', () => {
  describe('given a subject of the registry', () => {
    it('then only into the inboxes of its callers and of the test harness', () => {
      expect(replyInboxes('ledger.append.v1', registry)).toEqual(['_INBOX_sessions.', '_INBOX_test-client.']);
    });
  });

  describe('given a subject the registry does not know', () => {
    it('then only into the test harness’s inbox', () => {
      expect(replyInboxes('sessions.unknown.v1', registry)).toEqual(['_INBOX_test-client.']);
    });
  });

  describe('given the real registry', () => {
    it('then a health request may be answered to the gateway only (containers are probed on their own ports)', () => {
      expect(replyInboxes('health.ledger')).toEqual(['_INBOX_gateway.', '_INBOX_test-client.']);
    });
  });
});
