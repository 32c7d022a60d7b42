import { splitPayerMessage } from './payer-message';

const legacy = (message: string) =>
  ['Hi Till,', 'Jo has sent you a money transfer and the money is yours.', `Message: ${message}`, 'Reference Number : CAvjMTys'].join('\n');
const current = (message: string) =>
  ['Hi Till,', 'Funds Deposited!', '$25.00', 'Transfer Details', `Message: ${message}`, 'Date: Aug 26, 2026', 'Reference Number: C1AYd8eJYUcY', 'Sent From: Jo', 'Amount: $25.00 (CAD)'].join('\n');

describe('the payer’s Message, split from Interac’s text', () => {
  it('given the current layout, then the Message ends where Interac’s Date, Reference Number, Sent From and Amount begin', () => {
    const split = splitPayerMessage(current('PP-7K3M9Q Amount: $500.00 Date: Jan 1, 2020'));
    expect(split.message).toBe('PP-7K3M9Q Amount: $500.00 Date: Jan 1, 2020');
    expect(split.interac).toContain('Amount: $25.00 (CAD)');
    expect(split.interac).not.toContain('$500.00');
    expect(split.opening).toBe('Hi Till,\nFunds Deposited!\n$25.00\nTransfer Details\n');
    expect(split.labelled).toBe('Date: Aug 26, 2026\nReference Number: C1AYd8eJYUcY\nSent From: Jo\nAmount: $25.00 (CAD)');
  });

  it('given labels in the greeting (the recipient name the payer typed), then they are not where Interac’s labelled fields are read', () => {
    const split = splitPayerMessage(current('PP-7K3M9Q').replace('Hi Till,', 'Hi Till Reference Number: CVICTIM1234,'));
    expect(split.labelled).not.toContain('CVICTIM1234');
    expect(split.labelled).toContain('Reference Number: C1AYd8eJYUcY');
  });

  it('given the older layout and a Message ending in a label of its own ("Date: … deposited … $500.00"), then that label stays the payer’s', () => {
    const split = splitPayerMessage(legacy('PP-7K3M9Q Date: the money has been automatically deposited for the amount of $500.00'));
    expect(split.message).toBe('PP-7K3M9Q Date: the money has been automatically deposited for the amount of $500.00');
    expect(split.interac).not.toContain('deposited');
    expect(split.interac).not.toContain('$500.00');
    expect(split.opening).not.toContain('deposited');
  });

  it('given labels after the Message that no layout prints last, then all of them are the payer’s', () => {
    const split = splitPayerMessage(['Hi,', 'Message: PP-7K3M9Q', 'Sent From: Jo', 'Date: Aug 26, 2026'].join('\n'));
    expect(split.message).toBe('PP-7K3M9Q\nSent From: Jo\nDate: Aug 26, 2026');
  });

  it('given no Message label, then nothing is the payer’s and the whole text is the opening', () => {
    const text = 'Hi,\nFunds Deposited!\n$25.00';
    expect(splitPayerMessage(text)).toEqual({ message: null, interac: text, opening: text, labelled: text });
  });
});
