// A plain list of the desk's tasks; the Kanban board replaces it.
import { useEffect, useState } from 'react';
import type { ServerInfo } from '../../shared/task';
import type { Connection } from './connection';

export function TaskList({ connection }: { connection: Connection }) {
  const [info, setInfo] = useState<ServerInfo>();
  const [problem, setProblem] = useState<string>();

  useEffect(() => {
    fetch(`${connection.endpoint}/`, { headers: { Authorization: `Bearer ${connection.token}`, Accept: 'application/json' } })
      .then(async (response) => {
        if (!response.ok) throw new Error(`${response.status}: ${(await response.json() as { message?: string }).message ?? ''}`);
        setInfo(await response.json() as ServerInfo);
      })
      .catch((error: unknown) => setProblem(String(error)));
  }, [connection]);

  if (problem) return <p role="alert">Cannot reach the desk: {problem}</p>;
  if (!info) return <p>Loading…</p>;
  return (
    <main>
      <h1>{info.serverName}</h1>
      <table aria-label="Tasks">
        <thead><tr><th>Task</th><th>Status</th><th>Title</th></tr></thead>
        <tbody>
          {info.tasks.map((task) => <tr key={task.id}><td>{task.id}</td><td>{task.status}</td><td>{task.title}</td></tr>)}
        </tbody>
      </table>
    </main>
  );
}
