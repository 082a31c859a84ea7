import { describe, expect, it } from 'vitest';
import { layerPathOf, overlayNameable, planStateLayer, stateLayerRoot } from './state-layer-plan';

const request = {
  dataDir: '/data', taskId: 'add login', agentId: 'claude-code-acp',
  stateDirs: ['/home/p/.claude'], stateFiles: ['/home/p/.claude.json'], loginFiles: ['/home/p/.claude/.credentials.json'],
};

describe('planStateLayer', () => {
  it('keeps every layer of a task below one folder of the data dir, one per agent', () => {
    const plan = planStateLayer(request);
    expect(plan.root).toBe(stateLayerRoot('/data', 'add login', 'claude-code-acp'));
    expect(plan.root.startsWith('/data/agent-state/')).toBe(true);
    expect(stateLayerRoot('/data', 'add login', 'gemini')).not.toBe(plan.root);
    expect(plan.dirs[0]?.upper.startsWith(plan.root)).toBe(true);
    expect(plan.files[0]?.kept.startsWith(plan.root)).toBe(true);
  });

  it('hands back only login files inside the agent\'s own state places', () => {
    const plan = planStateLayer({ ...request, loginFiles: ['/home/p/.claude/.credentials.json', '/home/p/.bashrc', '/home/p/.claude', '/home/p/.claude.json'] });
    expect(plan.loginFiles).toEqual(['/home/p/.claude/.credentials.json', '/home/p/.claude.json']);
  });

  it('finds a state dir\'s file in the upper layer or in the copy', () => {
    const [dir] = planStateLayer(request).dirs;
    if (!dir) throw new Error('no dir planned');
    expect(layerPathOf(dir, '/home/p/.claude/a/b.json', 'overlay')).toBe(`${dir.upper}/a/b.json`);
    expect(layerPathOf(dir, '/home/p/.claude/a/b.json', 'copy')).toBe(`${dir.copy}/a/b.json`);
  });

  it('leaves paths the overlay options cannot name to the copy', () => {
    expect(overlayNameable('/home/p/.claude', '/data/x/upper')).toBe(true);
    expect(overlayNameable('/home/p,x/.claude')).toBe(false);
    expect(overlayNameable('/home/p:x/.claude')).toBe(false);
  });
});
