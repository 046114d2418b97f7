/** The id of the MCP server definition provider; package.json declares it under both contribution points. */
export const MCP_PROVIDER_ID = 'odin.mcpServers';
