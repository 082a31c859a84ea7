// A question with a form (an elicitation): fields generated from its requestedSchema, then send or decline.
import { useId, useMemo, useState, type FormEvent } from 'react';
import type { OpenQuestion } from '../../../../shared/questions';
import { desk } from '../../state/store';
import { formContent, schemaFields, type FormField } from './schema-fields';

function Field({ field, value, onChange, first, asked }: {
  field: FormField; value: string | boolean; onChange(value: string | boolean): void; first: boolean; asked: string;
}) {
  const id = useId();
  // A field titled with the question itself says it once: the question above is its label.
  const label = (
    <label htmlFor={id} className={field.label.trim() === asked.trim() ? 'sr-only' : undefined}>
      {field.label}
      {field.required && <span className="required" aria-hidden="true"> *</span>}
    </label>
  );
  if (field.type === 'boolean') {
    return (
      <div className="form-check">
        <input id={id} type="checkbox" checked={value === true} onChange={(event) => onChange(event.target.checked)} />
        {label}
      </div>
    );
  }
  return (
    <div className="form-field">
      {label}
      {field.type === 'choice' ? (
        <select id={id} value={String(value)} required={field.required} onChange={(event) => onChange(event.target.value)}>
          <option value="">Choose…</option>
          {field.choices?.map((choice) => <option key={choice} value={choice}>{choice}</option>)}
        </select>
      ) : (
        <input
          id={id}
          type={field.type === 'string' ? 'text' : 'number'}
          step={field.type === 'integer' ? 1 : 'any'}
          value={String(value)}
          required={field.required}
          aria-required={field.required}
          // The question is what the person came to the task for: its first text field takes the keyboard.
          autoFocus={first}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
      {field.description && <p className="hint">{field.description}</p>}
    </div>
  );
}

export function ElicitationForm({ question }: { question: OpenQuestion }) {
  const fields = useMemo(() => schemaFields(question.requestedSchema), [question.requestedSchema]);
  const [values, setValues] = useState<Record<string, string | boolean>>(() =>
    Object.fromEntries(fields.map((field) => [field.name, field.defaultValue ?? (field.type === 'boolean' ? false : '')])));
  const answer = (input: Parameters<ReturnType<typeof desk>['answerQuestion']>[1]) => void desk().answerQuestion(question.taskId, input);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    answer({ questionId: question.id, content: formContent(fields, values) });
  };

  return (
    <form
      className="question form"
      aria-label="The agent asks a question"
      onSubmit={submit}
      onKeyDown={(event) => { if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) { event.preventDefault(); event.currentTarget.requestSubmit(); } }}
    >
      <p className="question-label">The agent asks</p>
      <p className="question-prompt">{question.prompt}</p>
      {fields.map((field) => (
        <Field key={field.name} first={field === fields[0]} asked={question.prompt} field={field} value={values[field.name] ?? ''} onChange={(value) => setValues({ ...values, [field.name]: value })} />
      ))}
      <div className="question-options">
        <button type="submit" className="primary">Send answer</button>
        <button type="button" onClick={() => answer({ questionId: question.id, declined: true })}>Decline</button>
      </div>
    </form>
  );
}
