// The vendor agents the desk knows by name: how each starts in ACP mode, where it comes from, which keys it needs. Pure data.
// Bins and flags were checked against the installed packages (package.json `bin`, `--help`, an `initialize` answer).
import type { AgentSpec } from './agent-spec';

export interface KnownAgent extends AgentSpec {
  /** The npm package that provides `command`, for the "install it with…" hint. */
  npmPackage: string;
}

/**
 * Each agent gets only the variables its own vendor reads, so one vendor's key never reaches
 * another vendor's process.
 */
const ANTHROPIC_KEYS = [
  'ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN', 'ANTHROPIC_BASE_URL', 'ANTHROPIC_MODEL', 'CLAUDE_CODE_OAUTH_TOKEN',
  'CLAUDE_CODE_USE_BEDROCK', 'CLAUDE_CODE_USE_VERTEX', 'CLAUDE_CONFIG_DIR',
];
const GOOGLE_KEYS = [
  'GEMINI_API_KEY', 'GOOGLE_API_KEY', 'GOOGLE_CLOUD_PROJECT', 'GOOGLE_CLOUD_LOCATION', 'GOOGLE_GENAI_USE_VERTEXAI',
  'GOOGLE_APPLICATION_CREDENTIALS',
];

function known(entry: Pick<KnownAgent, 'id' | 'name' | 'command' | 'args' | 'npmPackage' | 'envAllowlist' | 'stateDirs' | 'networkHosts'>): KnownAgent {
  return { ...entry, dialect: 'acp', env: {} };
}

// Where each vendor keeps its login and settings, and the hosts it talks to: inside the sandbox the
// agent writes only there (besides its worktree) and reaches only these hosts (see docs/security.md).
// Claude Code also keeps `~/.claude.json` (onboarding, projects), replaced by rename, with backups beside it.
const ANTHROPIC = { stateDirs: ['~/.claude'], stateFiles: ['~/.claude.json'], networkHosts: ['api.anthropic.com', 'console.anthropic.com', 'claude.ai', 'statsig.anthropic.com'] };
const GOOGLE = {
  stateDirs: ['~/.gemini'],
  networkHosts: ['generativelanguage.googleapis.com', 'cloudcode-pa.googleapis.com', 'oauth2.googleapis.com', 'accounts.google.com', 'aiplatform.googleapis.com', '*.aiplatform.googleapis.com'],
};
const OPENAI = { stateDirs: ['~/.codex'], networkHosts: ['api.openai.com', 'chatgpt.com', 'auth.openai.com'] };

export const KNOWN_AGENTS: readonly KnownAgent[] = [
  known({ id: 'claude-agent-acp', name: 'Claude Agent', command: 'claude-agent-acp', args: [], npmPackage: '@agentclientprotocol/claude-agent-acp', envAllowlist: ANTHROPIC_KEYS, ...ANTHROPIC }),
  // The same adapter under its earlier package name, still what many machines have installed.
  known({ id: 'claude-code-acp', name: 'Claude Code', command: 'claude-code-acp', args: [], npmPackage: '@zed-industries/claude-code-acp', envAllowlist: ANTHROPIC_KEYS, ...ANTHROPIC }),
  known({ id: 'gemini', name: 'Gemini CLI', command: 'gemini', args: ['--acp'], npmPackage: '@google/gemini-cli', envAllowlist: GOOGLE_KEYS, ...GOOGLE }),
  known({ id: 'codex-acp', name: 'Codex', command: 'codex-acp', args: [], npmPackage: '@agentclientprotocol/codex-acp', envAllowlist: ['OPENAI_API_KEY', 'CODEX_API_KEY', 'OPENAI_BASE_URL', 'CODEX_HOME'], ...OPENAI }),
  known({
    id: 'opencode', name: 'OpenCode', command: 'opencode', args: ['acp'], npmPackage: 'opencode-ai',
    // OpenCode talks to many providers; it takes the keys of the ones it is configured for.
    envAllowlist: ['OPENCODE_API_KEY', 'OPENCODE_CONFIG', 'ANTHROPIC_API_KEY', 'OPENAI_API_KEY', 'GEMINI_API_KEY', 'OPENROUTER_API_KEY'],
    stateDirs: ['~/.local/share/opencode', '~/.config/opencode', '~/.cache/opencode', '~/.local/state/opencode'],
    networkHosts: ['opencode.ai', '*.opencode.ai', 'models.dev', 'api.anthropic.com', 'api.openai.com', 'generativelanguage.googleapis.com', 'openrouter.ai'],
  }),
  known({ id: 'qwen', name: 'Qwen Code', command: 'qwen', args: ['--acp'], npmPackage: '@qwen-code/qwen-code', envAllowlist: ['OPENAI_API_KEY', 'OPENAI_BASE_URL', 'OPENAI_MODEL', 'QWEN_HOME'],
    stateDirs: ['~/.qwen'], networkHosts: ['chat.qwen.ai', 'portal.qwen.ai', 'dashscope.aliyuncs.com', 'dashscope-intl.aliyuncs.com'] }),
  known({ id: 'copilot', name: 'GitHub Copilot', command: 'copilot', args: ['--acp'], npmPackage: '@github/copilot', envAllowlist: ['COPILOT_GITHUB_TOKEN', 'GH_TOKEN', 'GITHUB_TOKEN'],
    stateDirs: ['~/.copilot'], networkHosts: ['api.github.com', 'github.com', '*.githubcopilot.com', 'copilot-proxy.githubusercontent.com'] }),
  known({
    id: 'cline', name: 'Cline', command: 'cline', args: ['--acp'], npmPackage: 'cline',
    envAllowlist: ['CLINE_API_KEY', 'ANTHROPIC_API_KEY', 'OPENAI_API_KEY', 'OPENROUTER_API_KEY'],
    stateDirs: ['~/.cline'], networkHosts: ['api.cline.bot', '*.cline.bot', 'api.anthropic.com', 'api.openai.com', 'openrouter.ai'],
  }),
  known({ id: 'auggie', name: 'Auggie', command: 'auggie', args: ['--acp'], npmPackage: '@augmentcode/auggie', envAllowlist: ['AUGMENT_SESSION_AUTH', 'AUGMENT_API_TOKEN', 'AUGMENT_API_URL'],
    stateDirs: ['~/.augment'], networkHosts: ['*.augmentcode.com'] }),
];
