import { HEADER_SECTION_LIMITS } from '../intake/header-section';
import { headerRecipients } from './header-recipients';

const message = (headers: string[]) => Buffer.from(`${headers.join('\r\n')}\r\n\r\nbody\r\n`);

describe('headerRecipients', () => {
  it('given To and Delivered-To headers, when read from the raw header section, then each value is listed as written, To apart from Delivered-To', () => {
    const raw = message(['From: notify@payments.interac.ca', 'To: "Shop" <Pay@Shop.example>', 'Delivered-To: inbox+acme@platform.example', 'Subject: hi']);
    expect(headerRecipients(raw)).toEqual({ to: ['"Shop" <Pay@Shop.example>'], delivered_to: ['inbox+acme@platform.example'] });
  });

  it('given a To listing several mailboxes, folded, a group and a display name holding a comma, then every mailbox is in a value of its own', () => {
    const raw = message(['From: a@b.example', 'To: "Doe, Jane" <jane@shop.example>,', ' team: one@shop.example, two@shop.example;', 'To: last@shop.example']);
    expect(headerRecipients(raw).to).toEqual(['"Doe', 'Jane" <jane@shop.example>', 'team', 'one@shop.example', 'two@shop.example', 'last@shop.example']);
  });

  it('given thousands of values, or one too long to be a mailbox, then at most 20 plausible ones are kept', () => {
    const many = Array.from({ length: 3_000 }, (_, i) => `r${i}@shop.example`).join(', ');
    const raw = message(['From: a@b.example', `To: ${'x'.repeat(2_000)}@shop.example, ${many}`]);
    expect(headerRecipients(raw).to).toEqual(Array.from({ length: 20 }, (_, i) => `r${i}@shop.example`));
  });

  it('given a header section past its limits (stored before intake checked them), then no recipient is read', () => {
    const raw = message(['From: a@b.example', 'To: pay@shop.example', ...Array.from({ length: HEADER_SECTION_LIMITS.lines }, (_, i) => `X-Pad-${i}: x`)]);
    expect(headerRecipients(raw)).toEqual({ to: [], delivered_to: [] });
  });
});
