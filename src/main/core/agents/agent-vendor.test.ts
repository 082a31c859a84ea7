import { describe, expect, it } from 'vitest';
import { vendorOf } from './agent-vendor';
import { KNOWN_AGENTS } from './known-agents';
import { splitCommandLine } from './split-command';

const vendor = (line: string) => vendorOf(splitCommandLine(line), KNOWN_AGENTS)?.id;

describe('vendorOf', () => {
  it('knows a known agent by its program and ACP flag', () => {
    expect(vendor('gemini --acp')).toBe('gemini');
    expect(vendor('/opt/tools/bin/codex-acp')).toBe('codex-acp');
    expect(vendor('C:\\tools\\copilot.cmd --acp --model x')).toBe('copilot');
  });

  it('does not take the program without its ACP flag for the agent', () => {
    expect(vendor('gemini')).toBeUndefined();
    expect(vendor('my-agent --acp')).toBeUndefined();
  });

  it('sees through env with variables, flags and unsets', () => {
    expect(vendor('env HOME=/tmp/x gemini --acp')).toBe('gemini');
    expect(vendor('env -i -u OPENAI_API_KEY PATH=/usr/bin /usr/local/bin/codex-acp')).toBe('codex-acp');
  });

  it('sees through sh -c and bash -lc scripts', () => {
    expect(vendor("sh -c 'exec claude-agent-acp'")).toBe('claude-agent-acp');
    expect(vendor('bash -lc "cline --acp --verbose"')).toBe('cline');
  });

  it('knows an npm runner by the package it names, with or without a version', () => {
    expect(vendor('npx -y @google/gemini-cli@0.9.0 --acp')).toBe('gemini');
    expect(vendor('bunx @agentclientprotocol/claude-agent-acp')).toBe('claude-agent-acp');
    expect(vendor('pnpm dlx opencode-ai acp')).toBe('opencode');
    expect(vendor('npm exec --yes -- @github/copilot --acp')).toBe('copilot');
    expect(vendor('npx -p @qwen-code/qwen-code qwen --acp')).toBe('qwen');
  });

  it('peels wrappers inside wrappers', () => {
    expect(vendor("env GEMINI_API_KEY=k sh -c 'npx --yes @google/gemini-cli --acp'")).toBe('gemini');
  });

  it('leaves other programs and broken scripts alone', () => {
    expect(vendor('npx some-other-agent --acp')).toBeUndefined();
    expect(vendorOf(['sh', '-c', "'gemini --acp"], KNOWN_AGENTS)).toBeUndefined();
    expect(vendor('sh script.sh')).toBeUndefined();
    expect(vendor('env')).toBeUndefined();
  });
});
