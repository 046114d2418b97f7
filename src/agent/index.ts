/**
 * ODIN for agents: the tool definitions and their output formatting, shared by the VS Code
 * language-model tools (src/extension/agent) and the MCP server (src/agent/mcp). No
 * `vscode` import below this folder.
 */
export * from './tools';
export { ConfirmedCalls } from './confirmed';
export { createGate, type AgentGate, type GateResult, type GateSettings, type ValueKind } from './gate';
export {
  framed,
  inert,
  looksLikeInstruction,
  q,
  MAX_OUTPUT_CHARS,
  DATA_NOTICE,
  INJECTION_WARNING,
} from './format';
export { validateInput, type ObjectSchema, type PropertySchema } from './schema';
