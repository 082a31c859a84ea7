// Asked when the page was opened without a token: it is kept in this tab's sessionStorage, never in the URL.
import { useId, useState, type FormEvent } from 'react';
import type { Connection } from './api/desk-api';

export function TokenForm({ endpoint, problem, onConnect }: { endpoint: string; problem?: string; onConnect(connection: Connection): void }) {
  const [token, setToken] = useState('');
  const [address, setAddress] = useState(endpoint);
  const ids = { token: useId(), endpoint: useId() };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (token.trim() && address.trim()) onConnect({ endpoint: address.trim(), token: token.trim() });
  };
  return (
    <main className="token-page">
      <form className="token-form form" onSubmit={submit} aria-label="Connect to a desk">
        <h1>Assignment Desk</h1>
        <p className="hint">Paste the desk’s token. The desk prints a board link with it when it starts, and keeps it in its data folder.</p>
        {problem && <p role="alert" className="form-error">{problem}</p>}
        <label htmlFor={ids.endpoint}>Endpoint</label>
        <input id={ids.endpoint} type="text" value={address} onChange={(event) => setAddress(event.target.value)} />
        <label htmlFor={ids.token}>Token</label>
        <input id={ids.token} type="password" autoComplete="off" value={token} onChange={(event) => setToken(event.target.value)} autoFocus />
        <div className="dialog-actions">
          <button type="submit" className="primary" disabled={!token.trim()}>Connect</button>
        </div>
      </form>
    </main>
  );
}
