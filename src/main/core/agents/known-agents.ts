// The vendor agents the desk knows by name: how each starts in ACP mode, where it comes from, which keys it needs. Pure data.
// Bins and flags were checked against the installed packages (package.json `bin`, `--help`, an `initialize` answer).
import type { AgentSpec } from './agent-spec';

export interface KnownAgent extends AgentSpec {
  /** The npm package that provides `command`, for the "install it with…" hint. */
  npmPackage: string;
}

/**
 * Each agent gets only the variables its own vendor reads, so one vendor's key never reaches
 * another vendor's process. Besides keys, each list holds what a person sets to point the agent at a
 * gateway or a model on their own machine (base URLs, headers, model names); every name was found in
 * the agent's own code (the pinned packages in `desk-agents`), not guessed.
 */
const ANTHROPIC_KEYS = [
  'ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN', 'CLAUDE_CODE_OAUTH_TOKEN',
  // A gateway (LiteLLM, a company proxy) or a local model: where, with which headers, which models.
  'ANTHROPIC_BASE_URL', 'ANTHROPIC_CUSTOM_HEADERS', 'ANTHROPIC_BETAS', 'API_TIMEOUT_MS', 'CLAUDE_CODE_MAX_RETRIES',
  'ANTHROPIC_MODEL', 'ANTHROPIC_SMALL_FAST_MODEL', 'ANTHROPIC_DEFAULT_OPUS_MODEL', 'ANTHROPIC_DEFAULT_SONNET_MODEL',
  'ANTHROPIC_DEFAULT_HAIKU_MODEL', 'CLAUDE_CODE_SUBAGENT_MODEL', 'CLAUDE_CODE_MAX_OUTPUT_TOKENS', 'MAX_THINKING_TOKENS',
  // Claude through a cloud: Bedrock, Vertex, Foundry.
  'CLAUDE_CODE_USE_BEDROCK', 'ANTHROPIC_BEDROCK_BASE_URL', 'AWS_REGION', 'AWS_BEARER_TOKEN_BEDROCK', 'CLAUDE_CODE_SKIP_BEDROCK_AUTH',
  'CLAUDE_CODE_USE_VERTEX', 'ANTHROPIC_VERTEX_BASE_URL', 'ANTHROPIC_VERTEX_PROJECT_ID', 'CLOUD_ML_REGION',
  'CLAUDE_CODE_USE_FOUNDRY', 'ANTHROPIC_FOUNDRY_API_KEY', 'ANTHROPIC_FOUNDRY_BASE_URL', 'ANTHROPIC_FOUNDRY_RESOURCE',
  // Quiet by choice: no telemetry or update checks, which a gateway-only machine cannot reach anyway.
  'CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC', 'DISABLE_TELEMETRY', 'CLAUDE_CONFIG_DIR',
];
const GOOGLE_KEYS = [
  'GEMINI_API_KEY', 'GOOGLE_API_KEY', 'GOOGLE_CLOUD_PROJECT', 'GOOGLE_CLOUD_LOCATION', 'GOOGLE_GENAI_USE_VERTEXAI',
  'GOOGLE_APPLICATION_CREDENTIALS', 'GOOGLE_CLOUD_ACCESS_TOKEN', 'GOOGLE_GENAI_USE_GCA', 'GEMINI_DEFAULT_AUTH_TYPE',
  // A gateway or local model: where, how the key is sent, with which headers, which model, which API version.
  'GOOGLE_GEMINI_BASE_URL', 'GOOGLE_VERTEX_BASE_URL', 'GEMINI_API_KEY_AUTH_MECHANISM', 'GEMINI_CLI_CUSTOM_HEADERS',
  'GEMINI_MODEL', 'GOOGLE_GENAI_API_VERSION', 'CODE_ASSIST_ENDPOINT',
];
/** codex-acp and the codex binary it drives; `CODEX_HOME` holds `config.toml`, where most gateways are set. */
const OPENAI_CODEX_KEYS = [
  'OPENAI_API_KEY', 'CODEX_API_KEY', 'OPENAI_BASE_URL', 'OPENAI_ORGANIZATION', 'CODEX_HOME',
  // codex-acp's own startup settings: a provider by name and config overrides as JSON.
  'MODEL_PROVIDER', 'CODEX_CONFIG',
  // Codex's `--oss` provider (Ollama, LM Studio) and a gateway's own certificate authority.
  'CODEX_OSS_BASE_URL', 'CODEX_OSS_PORT', 'CODEX_CA_CERTIFICATE',
];
/** Qwen Code speaks OpenAI's API to any compatible endpoint (DashScope, a gateway, a local model). */
const QWEN_KEYS = [
  'OPENAI_API_KEY', 'OPENAI_BASE_URL', 'OPENAI_MODEL', 'OPENAI_ORG_ID', 'OPENAI_PROJECT_ID', 'QWEN_HOME', 'QWEN_DEFAULT_AUTH_TYPE',
];
/** OpenCode talks to many providers; it takes the keys of the ones it is configured for, and its config by path or inline. */
const OPENCODE_KEYS = [
  'OPENCODE_API_KEY', 'OPENCODE_CONFIG', 'OPENCODE_CONFIG_CONTENT', 'OPENCODE_DISABLE_AUTOUPDATE', 'OPENCODE_DISABLE_MODELS_FETCH',
  'OPENCODE_MODELS_URL', 'ANTHROPIC_API_KEY', 'ANTHROPIC_BASE_URL', 'OPENAI_API_KEY', 'OPENAI_BASE_URL', 'GEMINI_API_KEY',
  'GOOGLE_GENERATIVE_AI_API_KEY', 'OPENROUTER_API_KEY', 'OLLAMA_API_KEY', 'LMSTUDIO_API_KEY',
];

function known(entry: Pick<KnownAgent, 'id' | 'name' | 'command' | 'args' | 'npmPackage' | 'envAllowlist' | 'stateDirs' | 'loginFiles' | 'networkHosts'> & Partial<Pick<KnownAgent, 'confinedMode' | 'confinedAskMode' | 'endpointFiles'>>): KnownAgent {
  return { ...entry, dialect: 'acp', env: {} };
}

// Where each vendor keeps its login and settings, and the hosts it talks to: inside the sandbox the
// agent writes only there (besides its worktree), into a layer of the task's own, and reaches only these hosts (see
// docs/security.md). `loginFiles` are the vendor's credentials files, found in its own code: the only state a task hands
// back to the person's home, so a token refreshed in a task keeps working outside it.
// Claude Code also keeps `~/.claude.json` (onboarding, projects), replaced by rename, with backups beside it.
const ANTHROPIC = { stateDirs: ['~/.claude'], stateFiles: ['~/.claude.json'], loginFiles: ['~/.claude/.credentials.json'], networkHosts: ['api.anthropic.com', 'console.anthropic.com', 'claude.ai', 'statsig.anthropic.com'] };
const GOOGLE = {
  stateDirs: ['~/.gemini'],
  loginFiles: ['~/.gemini/oauth_creds.json', '~/.gemini/google_accounts.json'],
  networkHosts: ['generativelanguage.googleapis.com', 'cloudcode-pa.googleapis.com', 'oauth2.googleapis.com', 'accounts.google.com', 'aiplatform.googleapis.com', '*.aiplatform.googleapis.com'],
  // Gemini CLI (0.61) checks a file before write_file by reading it through the client, and takes any error answer,
  // ACP's resource-not-found included, for "exists but unreadable": through the desk it could never create a file.
  // So it reads files itself (inside the sandbox, which bounds what it can read) and writes them through the desk
  // (known() passes the field on with the rest).
  fileMethods: { readTextFile: false, writeTextFile: true },
} satisfies Partial<KnownAgent>;
const OPENAI = { stateDirs: ['~/.codex'], loginFiles: ['~/.codex/auth.json'], networkHosts: ['api.openai.com', 'chatgpt.com', 'auth.openai.com'] };

export const KNOWN_AGENTS: readonly KnownAgent[] = [
  known({ id: 'claude-agent-acp', name: 'Claude Agent', command: 'claude-agent-acp', args: [], npmPackage: '@agentclientprotocol/claude-agent-acp', envAllowlist: ANTHROPIC_KEYS, ...ANTHROPIC }),
  // The same adapter under its earlier package name, still what many machines have installed.
  known({ id: 'claude-code-acp', name: 'Claude Code', command: 'claude-code-acp', args: [], npmPackage: '@zed-industries/claude-code-acp', envAllowlist: ANTHROPIC_KEYS, ...ANTHROPIC }),
  known({ id: 'gemini', name: 'Gemini CLI', command: 'gemini', args: ['--acp'], npmPackage: '@google/gemini-cli', envAllowlist: GOOGLE_KEYS, ...GOOGLE }),
  // Codex runs each command in its own bubblewrap sandbox, which cannot start inside the desk's ("bwrap: execvp
  // codex-linux-sandbox"): confined by the desk, it runs in "agent-full-access" (codex-acp 2.6.0 offers read-only,
  // workspace-write, agent (its default) and agent-full-access), and the desk's sandbox is its only one.
  known({ id: 'codex-acp', name: 'Codex', command: 'codex-acp', args: [], npmPackage: '@agentclientprotocol/codex-acp', envAllowlist: OPENAI_CODEX_KEYS, confinedMode: 'agent-full-access', confinedAskMode: 'workspace-write',
    endpointFiles: ['$CODEX_HOME/config.toml', '~/.codex/config.toml'], ...OPENAI }),
  known({
    id: 'opencode', name: 'OpenCode', command: 'opencode', args: ['acp'], npmPackage: 'opencode-ai',
    envAllowlist: OPENCODE_KEYS, endpointFiles: ['$OPENCODE_CONFIG', '~/.config/opencode/opencode.json', '~/.config/opencode/opencode.jsonc'],
    stateDirs: ['~/.local/share/opencode', '~/.config/opencode', '~/.cache/opencode', '~/.local/state/opencode'],
    loginFiles: ['~/.local/share/opencode/auth.json'],
    networkHosts: ['opencode.ai', '*.opencode.ai', 'models.dev', 'api.anthropic.com', 'api.openai.com', 'generativelanguage.googleapis.com', 'openrouter.ai'],
  }),
  known({ id: 'qwen', name: 'Qwen Code', command: 'qwen', args: ['--acp'], npmPackage: '@qwen-code/qwen-code', envAllowlist: QWEN_KEYS, endpointFiles: ['~/.qwen/settings.json'],
    stateDirs: ['~/.qwen'], loginFiles: ['~/.qwen/oauth_creds.json'], networkHosts: ['chat.qwen.ai', 'portal.qwen.ai', 'dashscope.aliyuncs.com', 'dashscope-intl.aliyuncs.com'] }),
  known({ id: 'copilot', name: 'GitHub Copilot', command: 'copilot', args: ['--acp'], npmPackage: '@github/copilot', envAllowlist: ['COPILOT_GITHUB_TOKEN', 'GH_TOKEN', 'GITHUB_TOKEN'],
    stateDirs: ['~/.copilot'], networkHosts: ['api.github.com', 'github.com', '*.githubcopilot.com', 'copilot-proxy.githubusercontent.com'] }),
  known({
    id: 'cline', name: 'Cline', command: 'cline', args: ['--acp'], npmPackage: 'cline',
    envAllowlist: ['CLINE_API_KEY', 'ANTHROPIC_API_KEY', 'OPENAI_API_KEY', 'OPENROUTER_API_KEY'],
    stateDirs: ['~/.cline'], networkHosts: ['api.cline.bot', '*.cline.bot', 'api.anthropic.com', 'api.openai.com', 'openrouter.ai'],
  }),
  known({ id: 'auggie', name: 'Auggie', command: 'auggie', args: ['--acp'], npmPackage: '@augmentcode/auggie', envAllowlist: ['AUGMENT_SESSION_AUTH', 'AUGMENT_API_TOKEN', 'AUGMENT_API_URL'],
    stateDirs: ['~/.augment'], loginFiles: ['~/.augment/session.json'], networkHosts: ['*.augmentcode.com'] }),
];
