// The files a task changed, as a folder tree with status and +/− counts (those that run on the person's machine first,
// marked); picking one shows its diff, and each has a "viewed" box kept by the desk (it clears itself when the file's diff changes).
import type { FileDiff } from '../../../../shared/review';
import { fileTree, type TreeNode } from './file-tree';

export interface FileListProps {
  files: FileDiff[];
  selected: string | undefined;
  onSelect(path: string): void;
  viewed(file: FileDiff): boolean;
  onViewed(file: FileDiff, viewed: boolean): void;
}

export function FileList(props: FileListProps) {
  const done = props.files.filter(props.viewed).length;
  // Files that run on the person's machine are listed first, by their whole path, outside the tree.
  const flagged = props.files.filter((file) => file.attention);
  const rest = props.files.filter((file) => !file.attention);
  return (
    <nav className="file-list" aria-label="Changed files">
      <p className="file-progress">{done} of {props.files.length} viewed</p>
      {flagged.length > 0 && (
        <section className="file-attention" aria-label="Files that run on your machine">
          <p className="file-attention-title">Runs on your machine</p>
          <ul className="file-nodes">
            {flagged.map((file) => <FileRow key={file.path} name={file.path} file={file} props={props} />)}
          </ul>
        </section>
      )}
      <Nodes nodes={fileTree(rest)} props={props} />
    </nav>
  );
}

function Nodes({ nodes, props }: { nodes: TreeNode<FileDiff>[]; props: FileListProps }) {
  return (
    <ul className="file-nodes">
      {nodes.map((node) => (node.kind === 'folder' ? (
        <li key={`d:${node.path}`} className="file-folder">
          <span className="folder-name" title={node.path}>{node.name}/</span>
          <Nodes nodes={node.children} props={props} />
        </li>
      ) : (
        <FileRow key={node.file.path} name={node.name} file={node.file} props={props} />
      )))}
    </ul>
  );
}

function FileRow({ name, file, props }: { name: string; file: FileDiff; props: FileListProps }) {
  const viewed = props.viewed(file);
  return (
    <li className={`file-row${viewed ? ' file-viewed' : ''}`}>
      <input type="checkbox" aria-label={`Viewed ${file.path}`} title="Viewed" checked={viewed} onChange={(event) => props.onViewed(file, event.target.checked)} />
      <button
        type="button"
        aria-current={file.path === props.selected ? 'true' : undefined}
        onClick={() => props.onSelect(file.path)}
        title={file.oldPath ? `${file.oldPath} → ${file.path}` : file.path}
      >
        <span className={`file-status file-${file.status}`}>{file.status.slice(0, 1).toUpperCase()}<span className="sr-only"> {file.status}</span></span>
        <span className="file-path">{name}</span>
        {file.attention && <span className="file-attention-mark" title={file.attention.reason} aria-hidden="true">!</span>}
        {file.attention && <span className="sr-only">, needs attention: {file.attention.reason}</span>}
        <span className="file-counts">
          <span className="plus">+{file.additions}</span> <span className="minus">−{file.deletions}</span>
        </span>
      </button>
    </li>
  );
}
