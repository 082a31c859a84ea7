import { describe, expect, it } from 'vitest';
import { formContent, schemaFields } from './schema-fields';

const schema = {
  type: 'object',
  properties: {
    answer: { type: 'string', title: 'Colour' },
    count: { type: 'integer' },
    size: { type: 'string', enum: ['S', 'M'] },
    sure: { type: 'boolean', title: 'Sure?' },
  },
  required: ['answer'],
};

describe('schemaFields', () => {
  it('labels fields by title, else by name, and marks the required ones', () => {
    expect(schemaFields(schema).map((field) => [field.label, field.type, field.required])).toEqual([
      ['Colour', 'string', true], ['count', 'integer', false], ['size', 'choice', false], ['Sure?', 'boolean', false],
    ]);
  });

  it('reads nothing from a schema without properties', () => {
    expect(schemaFields(undefined)).toEqual([]);
  });
});

describe('formContent', () => {
  it('types the answer by the schema and leaves out empty optional fields', () => {
    expect(formContent(schemaFields(schema), { answer: 'blue', count: '3', size: '', sure: true })).toEqual({ answer: 'blue', count: 3, sure: true });
  });
});
