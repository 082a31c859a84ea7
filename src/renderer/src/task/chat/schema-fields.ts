// The fields of an elicitation form, read from its requestedSchema (a flat JSON schema object), and the
// answer content built from what the person typed.

export interface FormField {
  name: string;
  label: string;
  type: 'string' | 'number' | 'integer' | 'boolean' | 'choice';
  required: boolean;
  description?: string;
  choices?: string[];
  defaultValue?: string | boolean;
}

interface PropertySchema { type?: unknown; title?: unknown; description?: unknown; enum?: unknown; default?: unknown }

export function schemaFields(schema: unknown): FormField[] {
  if (!schema || typeof schema !== 'object') return [];
  const { properties, required } = schema as { properties?: Record<string, PropertySchema>; required?: unknown };
  if (!properties || typeof properties !== 'object') return [];
  const requiredNames = Array.isArray(required) ? required.filter((name): name is string => typeof name === 'string') : [];
  return Object.entries(properties).map(([name, property]) => {
    const choices = Array.isArray(property.enum) ? property.enum.map(String) : undefined;
    const declared = property.type;
    const type: FormField['type'] = choices ? 'choice'
      : declared === 'number' || declared === 'integer' || declared === 'boolean' ? declared : 'string';
    const fallback = property.default;
    return {
      name,
      label: typeof property.title === 'string' && property.title.trim() ? property.title : name,
      type,
      required: requiredNames.includes(name),
      ...(typeof property.description === 'string' && { description: property.description }),
      ...(choices && { choices }),
      ...((typeof fallback === 'string' || typeof fallback === 'boolean') && { defaultValue: fallback }),
      ...(typeof fallback === 'number' && { defaultValue: String(fallback) }),
    };
  });
}

/** The answer's content: numbers as numbers, booleans as booleans, empty optional fields left out. */
export function formContent(fields: readonly FormField[], values: Record<string, string | boolean>): Record<string, unknown> {
  const content: Record<string, unknown> = {};
  for (const field of fields) {
    const value = values[field.name];
    if (field.type === 'boolean') {
      content[field.name] = value === true;
    } else if (typeof value === 'string' && value.trim() !== '') {
      content[field.name] = field.type === 'number' || field.type === 'integer' ? Number(value) : value;
    }
  }
  return content;
}
