import { merchantChangeDetail, merchantCreatedDetail } from './merchant-audit-detail';

const merchant = { name: 'Maple Goods', etransfer_email: 'pay@maple.example', frame_ancestors: ['https://maple.example'] };

describe('the audit detail of a merchant', () => {
  it('given a merchant created with a deposit address, then the detail names its owner and the address', () => {
    expect(merchantCreatedDetail('owner@maple.example', 'pay@maple.example')).toBe('owner owner@maple.example; deposit address pay@maple.example');
  });

  it('given a merchant created without a deposit address, then the detail names its owner alone', () => {
    expect(merchantCreatedDetail('owner@maple.example', undefined)).toBe('owner owner@maple.example');
  });

  it('given a new deposit address, name and frame ancestors, then the address comes first with its old and new value', () => {
    const after = { name: 'Maple', etransfer_email: 'till@maple.example', frame_ancestors: ['https://a.example', 'https://b.example'] };
    expect(merchantChangeDetail(merchant, after)).toBe('deposit address pay@maple.example → till@maple.example; name Maple; frame ancestors https://a.example https://b.example');
  });

  it('given a deposit address and frame ancestors cleared, then each reads as none', () => {
    expect(merchantChangeDetail(merchant, { ...merchant, etransfer_email: null, frame_ancestors: [] })).toBe('deposit address pay@maple.example → none; frame ancestors none');
  });

  it('given the same settings sent again, then the detail says no change', () => {
    expect(merchantChangeDetail(merchant, { ...merchant, frame_ancestors: [...merchant.frame_ancestors] })).toBe('no change');
  });
});
