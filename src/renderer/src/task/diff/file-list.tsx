// The files a task changed, as a folder tree with status and +/− counts; picking one shows its diff, and each has a
// "viewed" box kept by the desk (it clears itself when the file's diff changes).
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
  return (
    <nav className="file-list" aria-label="Changed files">
      <p className="file-progress">{done} of {props.files.length} viewed</p>
      <Nodes nodes={fileTree(props.files)} props={props} />
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
        <span className="file-counts">
          <span className="plus">+{file.additions}</span> <span className="minus">−{file.deletions}</span>
        </span>
      </button>
    </li>
  );
}
