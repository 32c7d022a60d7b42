export * from './dkim-test-key';
export * from './interac-notice.builder';
export * from './notice-corpus';
export * from './transfer-evidence';
