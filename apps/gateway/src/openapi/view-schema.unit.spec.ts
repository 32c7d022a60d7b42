import { viewSchema } from './view-schema';

interface ExampleView {
  id: string;
  amount: number;
  status: 'OPEN' | 'CLOSED';
  note: string | null;
  tags?: string[];
}

describe('viewSchema', () => {
  it('requires every field the view does not mark optional, and drops the optional mark from the document', () => {
    const schema = viewSchema<ExampleView>({
      id: { type: 'string' },
      amount: { type: 'integer' },
      status: { type: 'string', enum: ['OPEN', 'CLOSED'] },
      note: { type: 'string', nullable: true },
      tags: { type: 'array', items: { type: 'string' }, optional: true },
    });

    expect(schema.required).toEqual(['id', 'amount', 'status', 'note']);
    expect(schema.properties?.tags).toEqual({ type: 'array', items: { type: 'string' } });
  });

  it('lets the compiler refuse a schema that drifts from its view', () => {
    const drifts = [
      // @ts-expect-error a field of the view is missing
      () => viewSchema<ExampleView>({ id: { type: 'string' }, amount: { type: 'integer' }, status: { type: 'string' }, note: { type: 'string', nullable: true } }),
      () =>
        viewSchema<ExampleView>({
          // @ts-expect-error a number documented as a string
          id: { type: 'integer' },
          amount: { type: 'integer' },
          status: { type: 'string' },
          note: { type: 'string', nullable: true },
          tags: { type: 'array', optional: true },
        }),
      () =>
        viewSchema<ExampleView>({
          id: { type: 'string' },
          amount: { type: 'integer' },
          // @ts-expect-error an enum value the view does not allow
          status: { type: 'string', enum: ['OPEN', 'PAID'] },
          note: { type: 'string', nullable: true },
          tags: { type: 'array', optional: true },
        }),
      () =>
        viewSchema<ExampleView>({
          id: { type: 'string' },
          amount: { type: 'integer' },
          status: { type: 'string' },
          // @ts-expect-error a nullable field not marked nullable
          note: { type: 'string' },
          tags: { type: 'array', optional: true },
        }),
      () =>
        viewSchema<ExampleView>({
          id: { type: 'string' },
          amount: { type: 'integer' },
          status: { type: 'string' },
          note: { type: 'string', nullable: true },
          // @ts-expect-error an optional field not marked optional
          tags: { type: 'array' },
        }),
    ];
    expect(drifts).toHaveLength(5);
  });
});
